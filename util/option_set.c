/* option_set.c: one typed setter per option type, a list of any of them
 * (OPT_LIST), and the defaults read by the same setters. The readers of a
 * command line and of a key = value line are options.c's. */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "util/name_list.h"
#include "util/near_name.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/size_arg.h"

enum { OPT_LIST_TEXT_MAX = 8192, OPT_MAX_ITEMS = 64 };

int opt_fail(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

static void *field_of(void *target, const struct opt_row *row) { return (char *)target + row->off; }

const char *opt_names_text(const struct opt_names *n, char *buf, size_t size)
{
    struct name_list l;
    name_list_start(&l, buf, size);
    for (int i = 0; i < n->count; i++)
        if (!n->allowed || n->allowed(i))
            name_list_add(&l, n->name(i));
    return buf;
}

/* The index of item among the row's names, or -1. */
static int name_index(const struct opt_names *n, const char *item)
{
    for (int i = 0; i < n->count; i++)
        if ((!n->allowed || n->allowed(i)) && strcmp(n->name(i), item) == 0)
            return i;
    return -1;
}

static int value_at(const struct opt_names *n, int i) { return n->values ? n->values[i] : i; }

/* "must be one of ...", with the name most likely meant. */
static int bad_name(const struct opt_names *n, const char *display, const char *item, char *why, size_t size)
{
    char list[512];
    struct near_name near;
    near_name_start(&near, item);
    for (int i = 0; i < n->count; i++)
        if (!n->allowed || n->allowed(i))
            near_name_offer(&near, n->name(i));
    const char *best = near_name_best(&near);
    return opt_fail(why, size, "%s must be one of %s, not \"%s\"%s%s%s", display,
                    opt_names_text(n, list, sizeof list), item, best ? "; did you mean " : "", best ? best : "",
                    best ? "?" : "");
}

int opt_name_value(const struct opt_names *n, const char *display, const char *item, int *value, char *why,
                   size_t size)
{
    int i = name_index(n, item);
    if (i < 0)
        return bad_name(n, display, item, why, size);
    *value = value_at(n, i);
    return 0;
}

/* OPT_ENUM and OPT_NAME: the value, or the name as the table holds it. */
static int set_name(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
                    size_t size)
{
    int v = 0;
    if (opt_name_value(row->names, display, value, &v, why, size) != 0)
        return -1;
    if (row->type == OPT_NAME)
        *(const char **)field_of(target, row) = row->names->name(name_index(row->names, value));
    else
        *(int *)field_of(target, row) = v;
    return 0;
}

/* A size with its unit, in MiB; a bare number would be bytes: far more
 * likely a forgotten unit, so it is refused as one. */
static int set_size_mib(const struct opt_row *row, const char *display, const char *value, void *target,
                        char *why, size_t size)
{
    int64_t bytes;
    size_t len = strlen(value);
    int bare = len && (isdigit((unsigned char)value[len - 1]) || value[len - 1] == '.');
    if (bare)
        return opt_fail(why, size, "%s needs a unit (e.g. 24GiB, 512MiB), not \"%s\"", display, value);
    if (!len || parse_bytes(value, &bytes) != 0 || bytes <= 0)
        return opt_fail(why, size, "%s must be a size above 0 such as 24GiB or 512MiB, not \"%s\"", display, value);
    *(double *)field_of(target, row) = bytes / 1048576.0;
    return 0;
}

/* Bytes, or none: 0. */
static int set_bytes(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
                     size_t size)
{
    int64_t *out = field_of(target, row);
    if (strcmp(value, "none") == 0)
        return (*out = 0, 0);
    if (parse_bytes(value, out) != 0 || *out <= 0)
        return opt_fail(why, size, "%s must be a size like 512MiB or 4GiB, or none, not \"%s\"", display, value);
    return 0;
}

const char *opt_expected(const struct opt_row *row, char *buf, size_t size)
{
    if (row->type == OPT_INT || row->type == OPT_LONG || row->type == OPT_INT64)
        snprintf(buf, size, "%s from %.0f to %.0f", row->flags & OPT_LIST ? "whole numbers" : "a whole number",
                 row->min, row->max);
    else if (row->type == OPT_DOUBLE)
        snprintf(buf, size, "a %s from %g to %g", row->noun ? row->noun : "number", row->min, row->max);
    else
        snprintf(buf, size, "%s", row->type == OPT_BOOL ? "true or false" : "");
    return buf;
}

static int set_number(const struct opt_row *row, const char *display, const char *value, void *target,
                      char *why, size_t size)
{
    long n;
    char expected[128];
    void *at = field_of(target, row);
    if (row->type == OPT_DOUBLE ? parse_double(value, row->min, row->max, at) != 0
                                : parse_long(value, (long)row->min, (long)row->max, &n) != 0)
        return opt_fail(why, size, "%s must be %s, not \"%s\"", display, opt_expected(row, expected, sizeof expected),
                        value);
    if (row->type == OPT_INT)
        *(int *)at = (int)n;
    else if (row->type == OPT_LONG)
        *(long *)at = n;
    else if (row->type == OPT_INT64)
        *(int64_t *)at = n;
    return 0;
}

static int set_bool(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
                    size_t size)
{
    char expected[32];
    int v = !strcmp(value, "true") || !strcmp(value, "1") ? 1 : !strcmp(value, "false") || !strcmp(value, "0") ? 0 : -1;
    if (v < 0)
        return opt_fail(why, size, "%s must be %s, not \"%s\"", display, opt_expected(row, expected, sizeof expected),
                        value);
    *(int *)field_of(target, row) = v;
    return 0;
}

static int set_typed(const struct opt_row *row, const char *display, const char *value, void *target, void *ctx,
                     char *why, size_t size)
{
    double *seconds = field_of(target, row);
    switch (row->type) {
    case OPT_INT: case OPT_LONG: case OPT_INT64: case OPT_DOUBLE:
        return set_number(row, display, value, target, why, size);
    case OPT_SIZE_MIB: return set_size_mib(row, display, value, target, why, size);
    case OPT_BYTES: return set_bytes(row, display, value, target, why, size);
    case OPT_DURATION:
        if (parse_seconds(value, seconds) == 0 && *seconds > 0 && (row->max <= 0 || *seconds <= row->max))
            return 0;
        return opt_fail(why, size, "%s must be a positive duration like 90, 90s, 15m or 2h, not \"%s\"", display,
                        value);
    case OPT_TEXT: *(const char **)field_of(target, row) = value; return 0;
    case OPT_ENUM: case OPT_NAME: return set_name(row, display, value, target, why, size);
    case OPT_FLAG: *(int *)field_of(target, row) = 1; return 0;
    case OPT_BOOL: return set_bool(row, display, value, target, why, size);
    case OPT_CUSTOM: return row->set(row, display, value, target, ctx, why, size);
    }
    return opt_fail(why, size, "%s has no type", display);
}

/* --- a list of any type ------------------------------------------------- */

/* "lists X twice": X as first written ("64" in "64, 064", a value written
 * two ways), quoted as every message of the engine quotes what was written. */
static int listed_twice(const char *display, const char *first, char *why, size_t size)
{
    return opt_fail(why, size, "%s lists \"%s\" twice", display, first);
}

static int set_list(const struct opt_row *row, const char *display, const char *value, void *target, void *ctx,
                    char *why, size_t size)
{
    char copy[OPT_LIST_TEXT_MAX], *items[OPT_MAX_ITEMS];
    int most = row->items > 0 && row->items < OPT_MAX_ITEMS ? row->items : OPT_MAX_ITEMS;
    snprintf(copy, sizeof copy, "%s", value);
    char separator = row->list_separator ? row->list_separator : ',';
    int n = strlen(value) < sizeof copy ? split_list_at(copy, separator, items, most) : -1;
    if (n <= 0 && separator != ',')
        return opt_fail(why, size, "%s needs 1 to %d values separated by `%c`, none of them empty, not \"%s\"",
                        display, most, separator, value);
    if (n <= 0)
        return opt_fail(why, size, "%s needs 1 to %d comma-separated values, none of them empty, not \"%s\"",
                        display, most, value);
    /* A value written twice would be two points with one id. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(items[i], items[j]) == 0)
                return listed_twice(display, items[j], why, size);
    for (int i = 0; i < n; i++) {
        struct opt_row item = *row;
        item.off = row->off + (size_t)i * row->size;
        if (set_typed(&item, display, items[i], target, ctx, why, size) != 0)
            return -1;
        for (int j = 0; j < i; j++)
            if (memcmp(field_of(target, &item), (char *)target + row->off + (size_t)j * row->size, row->size) == 0)
                return listed_twice(display, items[j], why, size);
    }
    *(int *)((char *)target + row->count_off) = n;
    return 0;
}

int opt_set_in(const struct opt_row *row, const char *display, const char *value, void *target, void *ctx,
               char *why, size_t size)
{
    int rc = row->flags & OPT_LIST ? set_list(row, display, value, target, ctx, why, size)
                                   : set_typed(row, display, value, target, ctx, why, size);
    if (rc == 0 && row->then)
        row->then(row, value, target);
    return rc;
}

int opt_set(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
            size_t size)
{
    return opt_set_in(row, display, value, target, NULL, why, size);
}

int opt_defaults(const struct opt_row *rows, int n_rows, void *target, void *ctx, char *why, size_t size)
{
    for (int i = 0; i < n_rows; i++) {
        char inner[700];
        if (!rows[i].def || (rows[i].flags & OPT_DEF_WORDS))
            continue;
        if (opt_set_in(&rows[i], rows[i].name, rows[i].def, target, ctx, inner, sizeof inner) != 0)
            return opt_fail(why, size, "the default of %s: %s", rows[i].name, inner);
    }
    return 0;
}
