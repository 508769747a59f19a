/* csv_table.c: line-at-a-time parsing, so every error has a line number.
 * peakfit never writes a field with a line break in it. */
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/csv_table.h"

struct fields {
    char **items;
    int n, cap, records;
};

static void on_field(void *data, size_t len, void *ctx)
{
    struct fields *f = ctx;
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->items = realloc(f->items, (size_t)f->cap * sizeof *f->items);
    }
    f->items[f->n] = malloc(len + 1);
    memcpy(f->items[f->n], data ? data : "", len);
    f->items[f->n++][len] = '\0';
}

static void on_record(int c, void *ctx)
{
    (void)c;
    ((struct fields *)ctx)->records++;
}

static void free_fields(char **items, int n)
{
    for (int i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

/* Parses one line; returns 0, or -1 with libcsv's reason. */
static int parse_line(const char *line, size_t len, struct fields *f, char *why, size_t whylen)
{
    struct csv_parser p;
    csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
    *f = (struct fields){0};
    int ok = csv_parse(&p, line, len, on_field, on_record, f) == len &&
             csv_fini(&p, on_field, on_record, f) == 0;
    if (!ok)
        snprintf(why, whylen, "malformed CSV (%s)", csv_strerror(csv_error(&p)));
    else if (f->records != 1)
        snprintf(why, whylen, "expected one record on the line");
    csv_free(&p);
    if (ok && f->records == 1)
        return 0;
    free_fields(f->items, f->n);
    return -1;
}

static void add_bad(struct csv_table *t, int line, const char *why)
{
    t->bad = realloc(t->bad, (size_t)(t->n_bad + 1) * sizeof *t->bad);
    t->bad[t->n_bad].line = line;
    snprintf(t->bad[t->n_bad].reason, sizeof t->bad[t->n_bad].reason, "%s", why);
    t->n_bad++;
}

static void add_line(struct csv_table *t, int line_no, const char *line, size_t len)
{
    struct fields f;
    char why[160];
    if (parse_line(line, len, &f, why, sizeof why) != 0)
        return add_bad(t, line_no, why);
    if (!t->header) {
        t->header = f.items;
        t->n_cols = f.n;
        return;
    }
    if (f.n != t->n_cols) {
        snprintf(why, sizeof why, "has %d fields, the header has %d", f.n, t->n_cols);
        free_fields(f.items, f.n);
        return add_bad(t, line_no, why);
    }
    t->rows = realloc(t->rows, (size_t)(t->n_rows + 1) * sizeof *t->rows);
    t->rows[t->n_rows++] = (struct csv_row){line_no, f.n, f.items};
}

int csv_table_read(const char *path, struct csv_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(err, errlen, "%s: cannot open", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int line_no = 0;
    while ((n = getline(&line, &cap, in)) > 0) {
        line_no++;
        int ended = line[n - 1] == '\n';
        size_t len = (size_t)n - (size_t)ended;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        if (!ended) {
            t->truncated = 1;
            add_bad(t, line_no, "truncated last row (the file ends inside it)");
            break;
        }
        t->complete_bytes += n;
        if (len > 0)
            add_line(t, line_no, line, len);
        if (len > 0 && !t->header)
            break;
    }
    free(line);
    fclose(in);
    if (!t->header) {
        snprintf(err, errlen, "%s: %s", path, t->n_bad ? "the header line does not parse" : "empty, no header line");
        csv_table_free(t);
        return -1;
    }
    return 0;
}

void csv_table_free(struct csv_table *t)
{
    free_fields(t->header, t->n_cols);
    for (int i = 0; i < t->n_rows; i++)
        free_fields(t->rows[i].fields, t->rows[i].n_fields);
    free(t->rows);
    free(t->bad);
    memset(t, 0, sizeof *t);
}

int csv_table_column(const struct csv_table *t, const char *name)
{
    for (int i = 0; i < t->n_cols; i++)
        if (strcmp(t->header[i], name) == 0)
            return i;
    return -1;
}

size_t csv_append_field(char *buf, size_t used, size_t size, const char *field)
{
    size_t len = strlen(field);
    if (used > 0) {
        if (used + 1 >= size)
            return size;
        buf[used++] = ',';
    }
    if (strpbrk(field, ",\"\r\n") == NULL) {
        if (used + len >= size)
            return size;
        memcpy(buf + used, field, len);
        return used + len;
    }
    size_t need = csv_write(NULL, 0, field, len);
    if (used + need >= size)
        return size;
    return used + csv_write(buf + used, size - used, field, len);
}
