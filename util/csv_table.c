/* csv_table.c: line-at-a-time parsing, so every error has a line number.
 * peakfit never writes a field with a line break in it. The file's lines
 * are counted before any row is stored, so a file of millions of tiny
 * lines is refused before it costs memory, and every allocation is checked. */
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/csv_table.h"
#include "util/input_file.h"

/* One line's fields while libcsv parses it: offsets into one text buffer,
 * reused from line to line. */
struct scratch {
    char *text;
    size_t used, cap;
    size_t *starts;
    int n, n_cap, records, out_of_memory;
};

static int grow(void **buf, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap)
        return 0;
    size_t bigger = *cap ? *cap : 64;
    while (bigger < need)
        bigger *= 2;
    void *p = realloc(*buf, bigger * item);
    if (!p)
        return -1;
    *buf = p;
    *cap = bigger;
    return 0;
}

static void on_field(void *data, size_t len, void *ctx)
{
    struct scratch *s = ctx;
    size_t n_cap = (size_t)s->n_cap;
    if (s->out_of_memory || grow((void **)&s->starts, &n_cap, (size_t)s->n + 1, sizeof *s->starts) ||
        grow((void **)&s->text, &s->cap, s->used + len + 1, 1)) {
        s->out_of_memory = 1;
        return;
    }
    s->n_cap = (int)n_cap;
    s->starts[s->n++] = s->used;
    memcpy(s->text + s->used, data ? data : "", len);
    s->text[s->used + len] = '\0';
    s->used += len + 1;
}

static void on_record(int c, void *ctx)
{
    (void)c;
    ((struct scratch *)ctx)->records++;
}

/* The parsed fields as one allocation: n pointers, then their text. */
static char **fields_block(const struct scratch *s)
{
    char **block = malloc((size_t)s->n * sizeof *block + s->used);
    if (!block)
        return NULL;
    char *text = (char *)(block + s->n);
    memcpy(text, s->text, s->used);
    for (int i = 0; i < s->n; i++)
        block[i] = text + s->starts[i];
    return block;
}

/* Parses one line into s; returns 0, or -1 with libcsv's reason. */
static int parse_line(const char *line, size_t len, struct scratch *s, char *why, size_t whylen)
{
    struct csv_parser p;
    csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
    s->used = 0;
    s->n = s->records = 0;
    int ok = csv_parse(&p, line, len, on_field, on_record, s) == len &&
             csv_fini(&p, on_field, on_record, s) == 0;
    if (!ok)
        snprintf(why, whylen, "malformed CSV (%s)", csv_strerror(csv_error(&p)));
    else if (s->records != 1)
        snprintf(why, whylen, "expected one record on the line");
    csv_free(&p);
    return ok && s->records == 1 ? 0 : -1;
}

static void add_bad(struct csv_table *t, int line, const char *why)
{
    if (t->n_bad == CSV_TABLE_KEEP_BAD) {
        t->n_bad_more++;
        return;
    }
    t->bad[t->n_bad].line = line;
    snprintf(t->bad[t->n_bad].reason, sizeof t->bad[t->n_bad].reason, "%s", why);
    t->n_bad++;
}

/* Returns 0, or -1 when out of memory. */
static int add_line(struct csv_table *t, struct scratch *s, int line_no, const char *line, size_t len)
{
    char why[160];
    if (parse_line(line, len, s, why, sizeof why) != 0) {
        add_bad(t, line_no, why);
        return s->out_of_memory ? -1 : 0;
    }
    if (t->header && s->n != t->n_cols) {
        snprintf(why, sizeof why, "has %d fields, the header has %d", s->n, t->n_cols);
        add_bad(t, line_no, why);
        return 0;
    }
    char **fields = fields_block(s);
    if (!fields)
        return -1;
    if (!t->header) {
        t->header = fields;
        t->n_cols = s->n;
    } else {
        t->rows[t->n_rows++] = (struct csv_row){line_no, s->n, fields};
    }
    return 0;
}

/* Lines in the file (a last line without its end of line counts). */
static long count_lines(FILE *in)
{
    char buf[65536];
    size_t n;
    long lines = 0;
    char last = '\n';
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        for (char *c = buf; (c = memchr(c, '\n', (size_t)(buf + n - c))) != NULL; c++)
            lines++;
        last = buf[n - 1];
    }
    rewind(in);
    return lines + (last != '\n');
}

/* Reads one line into buf, which has room for CSV_TABLE_MAX_LINE bytes and
 * its end of line; the rest of a longer line is consumed, not stored.
 * Returns the line's length with its end of line (0 at the end of the
 * file); *stored is how much of it is in buf. */
static size_t read_line(FILE *in, char *buf, size_t *stored, int *ended)
{
    size_t len = 0;
    int c = EOF;
    *stored = 0;
    while ((c = getc_unlocked(in)) != EOF) {
        len++;
        if (*stored < CSV_TABLE_MAX_LINE + 1)
            buf[(*stored)++] = (char)c;
        if (c == '\n')
            break;
    }
    *ended = c == '\n';
    return len;
}

static int oom(const char *path, struct csv_table *t, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: out of memory reading it (%d rows read)", path, t->n_rows);
    return CSV_TABLE_IO;
}

/* The lines are counted first, so that the rows are one allocation and a
 * file of too many is refused before it costs memory. Returns the count. */
static long prepare(const char *path, FILE *in, struct csv_table *t, char *err, size_t errlen)
{
    long lines = count_lines(in);
    if (lines - 1 > CSV_TABLE_MAX_ROWS) {
        snprintf(err, errlen, "%s: has %ld lines; at most %d rows are read", path, lines,
                 CSV_TABLE_MAX_ROWS);
        return CSV_TABLE_BAD_INPUT;
    }
    t->rows = malloc((size_t)(lines > 1 ? lines : 1) * sizeof *t->rows);
    t->bad = malloc(CSV_TABLE_KEEP_BAD * sizeof *t->bad);
    return t->rows && t->bad ? lines : oom(path, t, err, errlen);
}

/* One line: its row, or why it is set aside. Returns 0, or -1 when out of memory. */
static int take_line(struct csv_table *t, struct scratch *s, int line_no, char *line, size_t stored,
                     size_t len)
{
    char why[160];
    if (len > stored) {
        snprintf(why, sizeof why, "longer than %d bytes", CSV_TABLE_MAX_LINE);
        add_bad(t, line_no, why);
        return 0;
    }
    len -= 1 + (len > 1 && line[len - 2] == '\r');
    return len > 0 ? add_line(t, s, line_no, line, len) : 0;
}

/* An unended last line read as a row: its end of line added, where the
 * line fits the buffer (a longer one is refused as too long anyway). */
static size_t end_line(char *line, size_t *stored, size_t len)
{
    if (*stored == len && *stored < CSV_TABLE_MAX_LINE + 2)
        line[(*stored)++] = '\n';
    return len + 1;
}

/* The first line: a UTF-8 byte order mark (a spreadsheet's) is read past;
 * a UTF-16 one is named, as the text behind it is no CSV peakfit reads.
 * Returns 0, or -1 with the line set aside. */
static int byte_order_mark(struct csv_table *t, char *line, size_t *stored, size_t *len)
{
    if (*stored >= 2 && (!memcmp(line, "\xFF\xFE", 2) || !memcmp(line, "\xFE\xFF", 2))) {
        add_bad(t, 1, "starts with a UTF-16 byte order mark: save it as UTF-8 CSV");
        t->unreadable = 1;
        return -1;
    }
    size_t bom = *stored >= 3 ? input_file_bom(line) : 0;
    memmove(line, line + bom, *stored - bom);
    *stored -= bom;
    *len -= bom;
    return 0;
}

static int read_lines(const char *path, FILE *in, struct csv_table *t, long lines, enum csv_unended unended,
                      char *err, size_t errlen)
{
    struct scratch s = {0};
    char *line = malloc(CSV_TABLE_MAX_LINE + 2);
    int rc = line ? 0 : oom(path, t, err, errlen), ended;
    size_t len, stored;
    for (int line_no = 1; rc == 0 && (len = read_line(in, line, &stored, &ended)) > 0; line_no++) {
        if (line_no > lines) {
            add_bad(t, line_no, "the file grew while it was read; the lines from here on are ignored");
            break;
        }
        t->complete_bytes += ended ? (long)len : 0;
        if (!ended && unended == CSV_UNENDED_ROW)
            len = end_line(line, &stored, len);
        else if (!ended) {
            t->truncated = 1;
            t->truncated_line = line_no;
            add_bad(t, line_no, "truncated last row (the file ends inside it)");
            break;
        }
        if (line_no == 1 && byte_order_mark(t, line, &stored, &len) != 0)
            break;
        if (take_line(t, &s, line_no, line, stored, len) != 0)
            rc = oom(path, t, err, errlen);
        if (!t->header && len > 1 + (line[0] == '\r'))
            break; /* the first line with text is the header, and it did not parse */
    }
    free(line);
    free(s.text);
    free(s.starts);
    return rc;
}

/* Why input_file_open refused: bad input (what the path names is no
 * table) or an I/O failure. */
static int open_failure(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > CSV_TABLE_MAX_BYTES)
               ? CSV_TABLE_BAD_INPUT : CSV_TABLE_IO;
}

int csv_table_read(const char *path, struct csv_table *t, char *err, size_t errlen)
{
    return csv_table_read_as(path, t, CSV_UNENDED_CUT, err, errlen);
}

int csv_table_read_as(const char *path, struct csv_table *t, enum csv_unended unended, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *in = input_file_open(path, "", CSV_TABLE_MAX_BYTES, err, errlen);
    if (!in)
        return open_failure(path);
    long lines = prepare(path, in, t, err, errlen);
    int rc = lines < 0 ? (int)lines : read_lines(path, in, t, lines, unended, err, errlen);
    if (rc == 0 && ferror(in)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        rc = CSV_TABLE_IO;
    }
    fclose(in);
    if (rc == 0 && !t->header) {
        if (t->unreadable)
            snprintf(err, errlen, "%s:%d: %s", path, t->bad[0].line, t->bad[0].reason);
        else
            snprintf(err, errlen, "%s: %s", path, t->n_bad ? "the header line does not parse" : "empty, no header line");
        rc = CSV_TABLE_BAD_INPUT;
    }
    if (rc != 0)
        csv_table_free(t);
    return rc;
}

void csv_table_free(struct csv_table *t)
{
    free(t->header);
    for (int i = 0; i < t->n_rows; i++)
        free(t->rows[i].fields);
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
