/* options.c: one typed setter per option type, and the two readers that
 * use them: a command line (opt_parse_args) and a key = value line
 * (opt_parse_line). The help and the synopsis are option_help.c's. */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "util/name_list.h"
#include "util/near_name.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/size_arg.h"

enum { OPT_MAX_ROWS = 64, OPT_MAX_ITEMS = 64 };

static int fail(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t size, const char *fmt, ...)
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
    return fail(why, size, "%s must be one of %s, not \"%s\"%s%s%s", display, opt_names_text(n, list, sizeof list), item,
                best ? "; did you mean " : "", best ? best : "", best ? "?" : "");
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

static int set_enum_list(const struct opt_row *row, const char *display, const char *value, void *target,
                         char *why, size_t size)
{
    char copy[1024], *items[OPT_MAX_ITEMS];
    int *out = field_of(target, row);
    int most = row->max > 0 && row->max < OPT_MAX_ITEMS ? (int)row->max : OPT_MAX_ITEMS;
    snprintf(copy, sizeof copy, "%s", value);
    int n = split_list(copy, items, most);
    if (n <= 0)
        return fail(why, size, "%s needs 1 to %d comma-separated values, none of them empty, not \"%s\"", display,
                    most, value);
    for (int i = 0; i < n; i++) {
        if (opt_name_value(row->names, display, items[i], &out[i], why, size) != 0)
            return -1;
        for (int j = 0; j < i; j++)
            if (out[j] == out[i])
                return fail(why, size, "%s lists \"%s\" twice", display, items[i]);
    }
    *(int *)((char *)target + row->count_off) = n;
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
        return fail(why, size, "%s needs a unit (e.g. 24GiB, 512MiB), not \"%s\"", display, value);
    if (!len || parse_bytes(value, &bytes) != 0 || bytes <= 0)
        return fail(why, size, "%s must be a size above 0 such as 24GiB or 512MiB, not \"%s\"", display, value);
    *(double *)field_of(target, row) = bytes / 1048576.0;
    return 0;
}

static int set_number(const struct opt_row *row, const char *display, const char *value, void *target,
                      char *why, size_t size)
{
    long n;
    if (row->type == OPT_DOUBLE) {
        if (parse_double(value, row->min, row->max, field_of(target, row)) == 0)
            return 0;
        return fail(why, size, "%s must be a %s from %g to %g, not \"%s\"", display,
                    row->noun ? row->noun : "number", row->min, row->max, value);
    }
    if (parse_long(value, (long)row->min, (long)row->max, &n) != 0)
        return fail(why, size, "%s must be a whole number from %.0f to %.0f, not \"%s\"", display, row->min,
                    row->max, value);
    if (row->type == OPT_INT)
        *(int *)field_of(target, row) = (int)n;
    else
        *(long *)field_of(target, row) = n;
    return 0;
}

static int set_bool(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
                    size_t size)
{
    int v = !strcmp(value, "true") || !strcmp(value, "1") ? 1 : !strcmp(value, "false") || !strcmp(value, "0") ? 0 : -1;
    if (v < 0)
        return fail(why, size, "%s must be true or false, not \"%s\"", display, value);
    *(int *)field_of(target, row) = v;
    return 0;
}

static int set_typed(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
            size_t size)
{
    double *seconds = field_of(target, row);
    switch (row->type) {
    case OPT_INT: case OPT_LONG: case OPT_DOUBLE: return set_number(row, display, value, target, why, size);
    case OPT_SIZE_MIB: return set_size_mib(row, display, value, target, why, size);
    case OPT_DURATION:
        if (parse_seconds(value, seconds) == 0 && *seconds > 0 && (row->max <= 0 || *seconds <= row->max))
            return 0;
        return fail(why, size, "%s must be a positive duration like 90, 90s, 15m or 2h, not \"%s\"", display, value);
    case OPT_TEXT: *(const char **)field_of(target, row) = value; return 0;
    case OPT_ENUM: case OPT_NAME: return set_name(row, display, value, target, why, size);
    case OPT_ENUM_LIST: return set_enum_list(row, display, value, target, why, size);
    case OPT_FLAG: *(int *)field_of(target, row) = 1; return 0;
    case OPT_BOOL: return set_bool(row, display, value, target, why, size);
    case OPT_CUSTOM: return row->set(row, display, value, target, why, size);
    }
    return fail(why, size, "%s has no type", display);
}

int opt_set(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
            size_t size)
{
    if (set_typed(row, display, value, target, why, size) != 0)
        return -1;
    if (row->then)
        row->then(row, value, target);
    return 0;
}

const struct opt_row *opt_find(const struct opt_table *t, const char *name)
{
    for (int i = 0; i < t->n_rows; i++)
        if (strcmp(t->rows[i].name, name) == 0)
            return &t->rows[i];
    return NULL;
}

/* --- a command line ----------------------------------------------------- */

/* The row argv's arg names: --name, --name=value, -c or -cvalue; its
 * attached value (or NULL) in *attached. */
static const struct opt_row *row_of_arg(const struct opt_table *t, const char *arg, const char **attached)
{
    *attached = NULL;
    if (arg[1] != '-') {
        for (int i = 0; i < t->n_rows; i++)
            if (t->rows[i].short_name && t->rows[i].short_name == arg[1]) {
                *attached = arg[2] ? arg + 2 : NULL;
                return &t->rows[i];
            }
        return NULL;
    }
    size_t len = strcspn(arg + 2, "=");
    for (int i = 0; i < t->n_rows; i++)
        if (strlen(t->rows[i].name) == len && strncmp(t->rows[i].name, arg + 2, len) == 0) {
            *attached = arg[2 + len] == '=' ? arg + 3 + len : NULL;
            return &t->rows[i];
        }
    return NULL;
}

static int unknown_option(const struct opt_table *t, const char *arg, char *why, size_t size)
{
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + strspn(arg, "-"), "="), arg + strspn(arg, "-"));
    const char *near = opt_near(t, name);
    return fail(why, size, "unknown option \"%s\"%s%s%s", arg, near ? "; did you mean --" : "", near ? near : "",
                near ? "?" : "");
}

/* How a message names the option as it was written: "-o" or "--output". */
static const char *as_written(const char *arg, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s", (int)strcspn(arg, "="), arg);
    if (arg[1] != '-' && strlen(buf) > 2)
        buf[2] = '\0'; /* -j4: -j */
    return buf;
}

/* The option at argv[*i] (and its value); 0, or -1 with why. */
static int take_option(const struct opt_table *t, int argc, char **argv, int *i, void *target,
                       unsigned char *seen, char *why, size_t size)
{
    const char *value, *arg = argv[*i];
    char display[128];
    const struct opt_row *row = row_of_arg(t, arg, &value);
    if (!row)
        return unknown_option(t, arg, why, size);
    as_written(arg, display, sizeof display);
    if (seen[row - t->rows]++)
        return fail(why, size, "%s given twice; give it once", display);
    if (!row->arg)
        return value ? fail(why, size, "%s takes no value", display) : opt_set(row, display, "", target, why, size);
    if (!value && *i + 1 >= argc) /* what it is, as the help says */
        return fail(why, size, "%s needs a value: %s %s, %s", display, display, row->arg, row->help);
    if (!value) {
        value = argv[++*i];
        if (row->type == OPT_SIZE_MIB && size_unit_detached(value, *i + 1 < argc ? argv[*i + 1] : NULL))
            return fail(why, size, "%s %s %s: the unit must be attached to the number: %s %s%s", display, value,
                        argv[*i + 1], display, value, argv[*i + 1]);
    }
    return opt_set(row, display, value, target, why, size);
}

/* "needs --technique T, --seq-len S and -o DIR": the required rows not
 * seen; one alone with what it is ("needs -o DIR, the directory for ..."). */
static int missing_required(const struct opt_table *t, const unsigned char *seen, char *why, size_t size)
{
    int missing[OPT_MAX_ROWS], n = 0;
    for (int i = 0; i < t->n_rows; i++)
        if ((t->rows[i].flags & OPT_REQUIRED) && !seen[i])
            missing[n++] = i;
    if (!n)
        return 0;
    size_t used = (size_t)snprintf(why, size, "needs");
    for (int k = 0; k < n && used < size; k++) {
        const struct opt_row *r = &t->rows[missing[k]];
        char flag[64];
        if (r->short_name)
            snprintf(flag, sizeof flag, "-%c", r->short_name);
        else
            snprintf(flag, sizeof flag, "--%s", r->name);
        used += (size_t)snprintf(why + used, size - used, "%s %s%s%s", k == 0 ? "" : k == n - 1 ? " and" : ",", flag,
                                 r->arg ? " " : "", r->arg ? r->arg : "");
    }
    if (n == 1 && used < size)
        snprintf(why + used, size - used, ", %s", t->rows[missing[0]].help);
    return -1;
}

int opt_parse_args(const struct opt_table *t, int argc, char **argv, void *target, const char **operands,
                   int max_operands, int *n_operands, char *why, size_t size)
{
    unsigned char seen[OPT_MAX_ROWS] = {0};
    int options_end = 0; /* after "--", everything is an operand */
    *n_operands = 0;
    if (t->n_rows > OPT_MAX_ROWS)
        return fail(why, size, "%s has more than %d options", t->command, OPT_MAX_ROWS);
    for (int i = 1; i < argc; i++) {
        if (!options_end && strcmp(argv[i], "--") == 0) {
            options_end = 1;
        } else if (!options_end && argv[i][0] == '-' && argv[i][1]) {
            if (take_option(t, argc, argv, &i, target, seen, why, size) != 0)
                return -1;
        } else if (*n_operands >= max_operands) {
            return fail(why, size, "unexpected argument \"%s\"", argv[i]);
        } else {
            operands[(*n_operands)++] = argv[i];
        }
    }
    return missing_required(t, seen, why, size);
}

/* --- a key = value line ------------------------------------------------- */

int opt_parse_line(const struct opt_table *t, const char *where, char *line, void *target, char *why, size_t size)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return fail(why, size, "%s: expected key = value, not \"%s\"", where, trim(line));
    *eq = '\0';
    const char *key = trim(line), *value = trim(eq + 1);
    const struct opt_row *row = opt_find(t, key);
    if (!row) {
        const char *near = opt_near(t, key);
        return fail(why, size, "%s: unknown key \"%s\"%s%s%s", where, key, near ? "; did you mean " : "",
                    near ? near : "", near ? "?" : "");
    }
    char inner[900];
    if (opt_set(row, key, value, target, inner, sizeof inner) == 0)
        return 0;
    return fail(why, size, "%s: %s", where, inner);
}
