/* results_csv.c: the text of each peaks.csv column for a measured point,
 * appending rows safely, and opening the file for a (resumed) run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "store/results_csv.h"
#include "point/point_fields.h"
#include "store/results_resume.h"
#include "util/csv_table.h"
#include "settings/peaks_columns.h"

const char *results_header(void)
{
    return peaks_header();
}

/* Empty when unknown (negative): the worker never reported it. */
static const char *amount(results_number num, double v, const char *fmt)
{
    if (v < 0)
        return "";
    snprintf(num, sizeof(results_number), fmt, v);
    return num;
}

static double difference(double a, double b) { return a < 0 || b < 0 ? -1 : a - b; }

/* Steps after the first: the first also allocates AdamW's state. */
static double step_mean(const struct point_result *r)
{
    return r->n_steps > 1 ? r->later_steps_s / (r->n_steps - 1) : r->n_steps == 1 ? r->step1_s : -1;
}

static const char *now_text(results_number num)
{
    time_t now = time(NULL);
    strftime(num, sizeof(results_number), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    return num;
}

/* Report row k's column (its phase's) as the row's text says. */
static const char *row_text(enum worker_report_key k, int phase, const struct point_result *r, results_number num)
{
    static const char *const decimals[] = {
        [REPORT_TEXT_D0] = "%.0f", [REPORT_TEXT_D3] = "%.3f", [REPORT_TEXT_D4] = "%.4f", [REPORT_TEXT_D5] = "%.5f"};
    const struct worker_report_row *row = &worker_report_rows[k];
    double v = point_result_number(r, k, phase);
    if (row->less != REPORT_none)
        v = difference(v, point_result_number(r, row->less, 0));
    switch (row->text) {
    case REPORT_TEXT_TEXT: return point_result_text(r, k);
    case REPORT_TEXT_WHOLE: snprintf(num, sizeof(results_number), "%lld", (long long)v); return num;
    case REPORT_TEXT_STEP_MEAN: return amount(num, step_mean(r), "%.4f");
    case REPORT_TEXT_NOW: return now_text(num);
    default: return amount(num, v, decimals[row->text]);
    }
}

/* What its worker and the runner measured, by the report row that ends in
 * column c; NULL for the point's own columns. */
static const char *result_text(enum peaks_column c, const struct point_result *r, results_number num)
{
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        int first = (int)worker_report_rows[k].column;
        if (first != PEAKS_COL_none && (int)c >= first && (int)c < first + worker_report_phases((enum worker_report_key)k))
            return row_text((enum worker_report_key)k, (int)c - first, r, num);
    }
    return NULL;
}

const char *results_column_text(enum peaks_column c, const struct grid_point *p, const struct point_result *r,
                                 results_number num)
{
    const struct point_field *f = point_field_of_column(c);
    const char *text = f ? point_field_column_text(f, p, num) : NULL;
    if (!text && r)
        text = result_text(c, r, num);
    return text ? text : "";
}

static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        buf += w;
        n -= (size_t)w;
    }
    return fsync(fd);
}

int results_append(int fd, const struct grid_point *p, const struct point_result *r)
{
    struct point_result clean = *r;
    for (char *c = clean.error; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' '; /* a row is one line: the reader relies on it */
    const char *text[PEAKS_N_COLUMNS];
    results_number num[PEAKS_N_COLUMNS];
    size_t size = 2; /* the end of line and the terminator */
    for (int i = 0; i < PEAKS_N_COLUMNS; i++) {
        text[i] = results_column_text((enum peaks_column)i, p, &clean, num[i]);
        size += 2 * strlen(text[i]) + 3; /* quoted, each quote doubled, and a comma */
    }
    char *line = malloc(size);
    if (!line)
        return -1;
    size_t used = 0;
    for (int i = 0; i < PEAKS_N_COLUMNS; i++)
        used = csv_append_field(line, used, size - 1, text[i]);
    line[used++] = '\n';
    int rc = write_all(fd, line, used);
    free(line);
    return rc;
}

static int create(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return RESULTS_IO_ERROR;
    }
    return fd;
}

/* Opens an existing peaks.csv, already read as a regular file, for
 * appending; O_NONBLOCK so that a FIFO put there since cannot block. */
static int open_existing(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return RESULTS_IO_ERROR;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: is not a regular file", path);
        close(fd);
        return RESULTS_BAD_INPUT;
    }
    fcntl(fd, F_SETFL, O_APPEND);
    return fd;
}

static int write_header(int fd, const char *path, char *err, size_t errlen)
{
    if (fd < 0)
        return fd;
    const char *header = results_header();
    if (write_all(fd, header, strlen(header)) == 0 && write_all(fd, "\n", 1) == 0)
        return fd;
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    close(fd);
    return RESULTS_IO_ERROR;
}

/* An interrupted write leaves a last row without its end of line. */
static int cut_truncated_row(int fd, const char *path, const struct csv_table *t, char *err, size_t errlen)
{
    if (!t->truncated)
        return fd;
    fprintf(stderr, "peakfit: %s:%d: truncated last row removed (an interrupted write); "
            "its point will run again\n", path, t->truncated_line);
    if (ftruncate(fd, t->complete_bytes) == 0)
        return fd;
    snprintf(err, errlen, "%s: cannot truncate: %s", path, strerror(errno));
    close(fd);
    return RESULTS_IO_ERROR;
}

static int resume(const char *path, const struct grid *g, unsigned char *done, char *err, size_t errlen)
{
    struct csv_table t;
    int rc = csv_table_read(path, &t, err, errlen);
    if (rc != 0)
        return rc == CSV_TABLE_BAD_INPUT ? RESULTS_BAD_INPUT : RESULTS_IO_ERROR;
    rc = results_match(path, &t, g, done, err, errlen);
    if (rc == 0)
        rc = open_existing(path, err, errlen);
    if (rc >= 0)
        rc = cut_truncated_row(rc, path, &t, err, errlen);
    csv_table_free(&t);
    return rc;
}

int results_open(const char *path, const struct grid *g, unsigned char *done, char *err, size_t errlen)
{
    struct stat st;
    memset(done, 0, (size_t)g->n);
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return write_header(create(path, err, errlen), path, err, errlen);
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return RESULTS_IO_ERROR;
    }
    /* A regular file left empty (created, never written): start it afresh. */
    if (S_ISREG(st.st_mode) && st.st_size == 0)
        return write_header(open_existing(path, err, errlen), path, err, errlen);
    return resume(path, g, done, err, errlen);
}
