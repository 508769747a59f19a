/* parse.c: strict number parsing; "12abc", "", " 3", "0x10", "inf" and overflow all fail. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/parse.h"

/* A number as people write it: an optional sign, then a digit or a
 * point and a digit. Keeps strtol/strtod from taking what they would:
 * leading white space (" 3"), hex ("0x10B" is 267 to strtod: B is a hex
 * digit), "inf" and "nan". */
static int decimal_text(const char *text)
{
    const char *p = text + (*text == '+' || *text == '-');
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return 0;
    return isdigit((unsigned char)p[0]) || (p[0] == '.' && isdigit((unsigned char)p[1]));
}

int parse_long(const char *text, long min, long max, long *out)
{
    char *end;
    if (!decimal_text(text))
        return -1;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int parse_double(const char *text, double min, double max, double *out)
{
    char *end;
    if (!decimal_text(text))
        return -1;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

struct unit { const char *name; double factor; };

static int scaled(const char *text, const struct unit *units, double max, double *out)
{
    char *end;
    if (!decimal_text(text))
        return -1;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno == ERANGE || !isfinite(v) || v < 0)
        return -1;
    while (*end == ' ')
        end++;
    for (const struct unit *u = units; u->name; u++) {
        if (strcasecmp(end, u->name) == 0 && v * u->factor <= max) {
            *out = v * u->factor;
            return 0;
        }
    }
    return -1;
}

static const struct unit byte_units[] = {
    {"", 1}, {"B", 1},
    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
    {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
    {"K", 1024.0}, {"M", 1048576.0}, {"G", 1073741824.0}, {NULL, 0}};

const char *bytes_unit(const char *text, double *factor)
{
    char *end;
    strtod(text, &end);
    while (*end == ' ')
        end++;
    *factor = 1048576.0;
    for (const struct unit *u = byte_units; u->name; u++)
        if (strcasecmp(end, u->name) == 0)
            *factor = u->factor;
    /* shown by the first name of that size: "B" for "", "GiB" for "G" */
    for (const struct unit *u = byte_units + 1; u->name; u++)
        if (u->factor == *factor)
            return u->name;
    return "MiB";
}

int parse_bytes(const char *text, int64_t *out)
{
    const struct unit *units = byte_units;
    double v;
    if (scaled(text, units, 9.0e18, &v) != 0)
        return -1;
    *out = (int64_t)v;
    return 0;
}

int parse_seconds(const char *text, double *out)
{
    static const struct unit units[] = {
        {"", 1}, {"s", 1}, {"m", 60}, {"min", 60}, {"h", 3600}, {NULL, 0}};
    return scaled(text, units, 1e9, out);
}

char *trim(char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        text[--n] = '\0';
    return text;
}

int split_list(char *text, char **items, int max) { return split_list_at(text, ',', items, max); }

int split_list_at(char *text, char separator, char **items, int max)
{
    int n = 0;
    char *rest = text;
    for (;;) {
        char *comma = strchr(rest, separator);
        if (comma)
            *comma = '\0';
        if (n == max)
            return -1;
        items[n] = trim(rest);
        if (items[n][0] == '\0')
            return -1;
        n++;
        if (!comma)
            return n;
        rest = comma + 1;
    }
}

const char *double_text(double v, char *buf, size_t size)
{
    char best[32] = "", text[32];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        int back = strtod(text, NULL) == v || isnan(v);
        if (back && (!best[0] || strlen(text) < strlen(best)))
            memcpy(best, text, sizeof text);
    }
    snprintf(buf, size, "%s", best);
    return buf;
}
