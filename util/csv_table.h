/* csv_table.h: reads a whole CSV file (libcsv, one record per line) into
 * rows, keeping every line number; a row that does not parse or has the
 * wrong number of fields is set aside with its reason, never used. */
#ifndef PEAKFIT_CSV_TABLE_H
#define PEAKFIT_CSV_TABLE_H
#include <stddef.h>

struct csv_row {
    int line;
    int n_fields;
    char **fields;
};

struct csv_bad_row {
    int line;
    char reason[160];
};

struct csv_table {
    char **header;
    int n_cols;
    struct csv_row *rows;
    int n_rows;
    struct csv_bad_row *bad;
    int n_bad;
    long complete_bytes; /* up to and including the last end of line */
    int truncated;       /* the file ends inside a row */
};

/* Returns 0, or -1 with "FILE: why" in err (cannot open, no header). */
int csv_table_read(const char *path, struct csv_table *t, char *err, size_t errlen);
void csv_table_free(struct csv_table *t);
/* Index of the column with this header name, or -1. */
int csv_table_column(const struct csv_table *t, const char *name);

/* Appends one field to buf (quoted by libcsv only when it needs to be),
 * preceded by a comma unless it is the first; returns the new length, or
 * size when it did not fit. */
size_t csv_append_field(char *buf, size_t used, size_t size, const char *field);
#endif
