/* csv_table.h: reads a whole CSV file (libcsv, one record per line) into
 * rows, keeping every line number; a row that does not parse or has the
 * wrong number of fields is set aside with its reason, never used.
 * Memory is bounded: only regular files of at most CSV_TABLE_MAX_BYTES and
 * CSV_TABLE_MAX_ROWS lines are read, and of the bad rows only the first
 * CSV_TABLE_KEEP_BAD are kept (the rest are counted). */
#ifndef PEAKFIT_CSV_TABLE_H
#define PEAKFIT_CSV_TABLE_H
#include <stddef.h>

#define CSV_TABLE_MAX_BYTES (1LL << 30)
enum { CSV_TABLE_MAX_ROWS = 5000000, CSV_TABLE_MAX_LINE = 1 << 20, CSV_TABLE_KEEP_BAD = 20 };
/* csv_table_read's failures: the file could not be read, or is no table. */
enum { CSV_TABLE_IO = -1, CSV_TABLE_BAD_INPUT = -2 };

struct csv_row {
    int line;
    int n_fields;
    char **fields; /* one allocation: the pointers, then the text */
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
    struct csv_bad_row *bad; /* the first CSV_TABLE_KEEP_BAD bad rows */
    int n_bad;
    int n_bad_more;          /* bad rows after those, counted only */
    long complete_bytes;     /* up to and including the last end of line */
    int truncated;           /* the file ends inside a row ... */
    int truncated_line;      /* ... on this line */
    int unreadable;          /* no CSV at all: bad[0] says why (a UTF-16 file) */
};

/* Returns 0, or CSV_TABLE_IO / CSV_TABLE_BAD_INPUT with "FILE: why" in err
 * (cannot open; a directory, FIFO or device; too large; no header). */
int csv_table_read(const char *path, struct csv_table *t, char *err, size_t errlen);
/* What a last line without its end of line is: a row cut by an
 * interrupted write (peakfit's own files: csv_table_read), or a whole row,
 * as RFC 4180 allows (files people write: a reference). */
enum csv_unended { CSV_UNENDED_CUT, CSV_UNENDED_ROW };
int csv_table_read_as(const char *path, struct csv_table *t, enum csv_unended unended, char *err, size_t errlen);
void csv_table_free(struct csv_table *t);
/* Index of the column with this header name, or -1. */
int csv_table_column(const struct csv_table *t, const char *name);

/* Appends one field to buf (quoted by libcsv only when it needs to be),
 * preceded by a comma unless it is the first; returns the new length, or
 * size when it did not fit. */
size_t csv_append_field(char *buf, size_t used, size_t size, const char *field);
#endif
