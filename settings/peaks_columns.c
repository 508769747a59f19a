/* peaks_columns.c: the column table, the header built from it, and the
 * checks every reader of peaks.csv applies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/csv_table.h"
#include "util/parse.h"
#include "settings/peaks_columns.h"
#include "util/rank_peaks.h"

const struct peaks_column_info peaks_columns[PEAKS_N_COLUMNS] = {
#define PEAKS_INFO(name, type, role, what) {#name, PEAKS_##type, PEAKS_##role, what},
    PEAKS_COLUMNS(PEAKS_INFO)
#undef PEAKS_INFO
};

const char *peaks_header(void)
{
    static char header[2048];
    if (!header[0]) {
        size_t used = 0;
        for (int i = 0; i < PEAKS_N_COLUMNS; i++)
            used = csv_append_field(header, used, sizeof header, peaks_columns[i].name);
        header[used < sizeof header ? used : 0] = '\0';
    }
    return header;
}

int peaks_header_check(char *const *names, int n, int old_ok, const char *path, char *err, size_t errlen)
{
    int col = 0;
    while (col < n && col < PEAKS_N_COLUMNS && strcmp(names[col], peaks_columns[col].name) == 0)
        col++;
    /* Columns are only ever appended: an older version's header is a prefix. */
    if (col == n && (n == PEAKS_N_COLUMNS || (old_ok && n >= PEAKS_OLD_COLUMNS)))
        return 0;
    char found[120], expected[120];
    if (col < n)
        snprintf(found, sizeof found, "\"%.100s\"", names[col]);
    else
        snprintf(found, sizeof found, "no column");
    if (col < PEAKS_N_COLUMNS)
        snprintf(expected, sizeof expected, "expected \"%s\"", peaks_columns[col].name);
    else
        snprintf(expected, sizeof expected, "expected no more columns");
    /* One header a prefix of the other: columns were appended since. */
    int other_version = col == n || col == PEAKS_N_COLUMNS;
    snprintf(err, errlen, "%s:1: header differs from this version's peaks.csv at column %d (%s, %s)%s", path,
             col + 1, found, expected, other_version ? ": it is from another peakfit version" : "");
    return -1;
}

static int field_ok(const char *text, enum peaks_type type)
{
    long whole;
    double number;
    if (type == PEAKS_TEXT || !text[0])
        return 1;
    if (type == PEAKS_INT)
        return parse_long(text, -(1L << 62), 1L << 62, &whole) == 0;
    return parse_double(text, -1e18, 1e18, &number) == 0;
}

int peaks_row_check(char *const *fields, int n, char *why, size_t whylen)
{
    for (int i = 0; i < n && i < PEAKS_N_COLUMNS; i++) {
        const struct peaks_column_info *c = &peaks_columns[i];
        if (field_ok(fields[i], c->type))
            continue;
        snprintf(why, whylen, "%s \"%.40s\" is not %s", c->name, fields[i],
                 c->type == PEAKS_INT ? "a whole number" : "a finite number");
        return -1;
    }
    if (n > PEAKS_COL_point_id && !fields[PEAKS_COL_point_id][0]) {
        snprintf(why, whylen, "point_id is empty");
        return -1;
    }
    struct rank_peak ranks[RANK_PEAKS_MAX];
    if (n > PEAKS_COL_rank_peaks_mib && rank_peaks_parse(fields[PEAKS_COL_rank_peaks_mib], ranks, RANK_PEAKS_MAX, why,
                                                          whylen) < 0)
        return -1;
    if (n > PEAKS_COL_status && !fields[PEAKS_COL_status][0]) {
        snprintf(why, whylen, "status is empty");
        return -1;
    }
    return 0;
}

double peaks_number(const char *field)
{
    return field[0] ? strtod(field, NULL) : -1;
}
