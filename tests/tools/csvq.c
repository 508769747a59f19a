/* csvq: prints the named columns of a CSV file's rows, tab-separated, so
 * shell tests can read peaks.csv through the same parser peakfit uses.
 * usage: csvq FILE COLUMN... ; exits 1 on a missing column or bad row. */
#include <stdio.h>
#include "util/csv_table.h"

int main(int argc, char **argv)
{
    struct csv_table t;
    char err[512];
    int cols[32];
    if (argc < 3 || argc > 34) {
        fprintf(stderr, "usage: csvq FILE COLUMN...\n");
        return 2;
    }
    if (csv_table_read(argv[1], &t, err, sizeof err) != 0) {
        fprintf(stderr, "csvq: %s\n", err);
        return 1;
    }
    int rc = t.n_bad ? 1 : 0;
    for (int i = 0; i < t.n_bad; i++)
        fprintf(stderr, "csvq: %s:%d: %s\n", argv[1], t.bad[i].line, t.bad[i].reason);
    for (int c = 2; c < argc; c++)
        if ((cols[c - 2] = csv_table_column(&t, argv[c])) < 0) {
            fprintf(stderr, "csvq: no column %s\n", argv[c]);
            rc = 1;
        }
    for (int r = 0; rc == 0 && r < t.n_rows; r++)
        for (int c = 2; c < argc; c++)
            printf("%s%c", t.rows[r].fields[cols[c - 2]], c + 1 < argc ? '\t' : '\n');
    csv_table_free(&t);
    return rc;
}
