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
#include "results/results_csv.h"
#include "point/point_fields.h"
#include "results/results_resume.h"
#include "util/csv_table.h"
#include "util/peaks_columns.h"

const char *results_header(void)
{
    return peaks_header();
}

static const char *whole(results_number num, long long v)
{
    snprintf(num, sizeof(results_number), "%lld", v);
    return num;
}

/* Empty when unknown (negative): the worker never reported it. */
static const char *amount(results_number num, double v, const char *fmt)
{
    if (v < 0)
        return "";
    snprintf(num, sizeof(results_number), fmt, v);
    return num;
}

static double mib(long long bytes) { return bytes < 0 ? -1 : bytes / 1048576.0; }

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

/* What its worker and the runner measured; NULL for the point's own columns. */
static const char *result_text(enum peaks_column c, const struct point_result *r, results_number num)
{
    switch (c) {
    case PEAKS_COL_status: return r->status;
    case PEAKS_COL_exit_code: return whole(num, r->exit_code);
    case PEAKS_COL_signal: return whole(num, r->signal);
    case PEAKS_COL_params: return amount(num, (double)r->params, "%.0f");
    case PEAKS_COL_trainable_params: return amount(num, (double)r->trainable_params, "%.0f");
    case PEAKS_COL_weight_mib: return amount(num, mib(r->weight_bytes), "%.3f");
    case PEAKS_COL_grad_mib: return amount(num, mib(r->grad_bytes), "%.3f");
    case PEAKS_COL_optimizer_mib: return amount(num, mib(r->optimizer_bytes), "%.3f");
    case PEAKS_COL_baseline_rss_mib: return amount(num, r->baseline_rss_mib, "%.3f");
    case PEAKS_COL_peak_rss_mib: return amount(num, r->peak_rss_mib, "%.3f");
    case PEAKS_COL_peak_above_baseline_mib:
        return amount(num, difference(r->peak_rss_mib, r->baseline_rss_mib), "%.3f");
    case PEAKS_COL_rusage_maxrss_mib: return amount(num, r->rusage_maxrss_mib, "%.3f");
    case PEAKS_COL_tensor_peak_mib:
        return amount(num, difference(r->tensor_peak_mib, r->baseline_tensor_mib), "%.3f");
    case PEAKS_COL_build_s: return amount(num, r->build_s, "%.4f");
    case PEAKS_COL_start_s: return amount(num, r->start_s, "%.4f");
    case PEAKS_COL_init_s: return amount(num, r->init_s, "%.4f");
    case PEAKS_COL_step1_s: return amount(num, r->n_steps > 0 ? r->step1_s : -1, "%.4f");
    case PEAKS_COL_step_mean_s: return amount(num, step_mean(r), "%.4f");
    case PEAKS_COL_worker_wall_s: return amount(num, r->wall_s, "%.3f");
    case PEAKS_COL_loss: return amount(num, r->loss, "%.5f");
    case PEAKS_COL_torch_version: return r->torch_version;
    case PEAKS_COL_threads: return amount(num, r->threads, "%.0f");
    case PEAKS_COL_blas: return r->blas;
    case PEAKS_COL_blas_threads: return amount(num, r->blas_threads, "%.0f");
    case PEAKS_COL_cpu_model: return r->cpu_model;
    case PEAKS_COL_finished_at: return now_text(num);
    case PEAKS_COL_error: return r->error;
    case PEAKS_COL_forward_peak_mib:
    case PEAKS_COL_backward_peak_mib:
    case PEAKS_COL_optimizer_peak_mib:
        return amount(num, difference(r->phase_peak_mib[c - PEAKS_COL_forward_peak_mib], r->baseline_tensor_mib),
                      "%.3f");
    case PEAKS_COL_forward_end_rss_mib:
    case PEAKS_COL_backward_end_rss_mib:
    case PEAKS_COL_optimizer_end_rss_mib:
        return amount(num, difference(r->phase_end_rss_mib[c - PEAKS_COL_forward_end_rss_mib], r->baseline_rss_mib),
                      "%.3f");
    case PEAKS_COL_forward_gpu_allocated_peak_mib:
    case PEAKS_COL_backward_gpu_allocated_peak_mib:
    case PEAKS_COL_optimizer_gpu_allocated_peak_mib:
        return amount(num, r->phase_gpu_allocated_mib[c - PEAKS_COL_forward_gpu_allocated_peak_mib], "%.3f");
    case PEAKS_COL_forward_gpu_reserved_peak_mib:
    case PEAKS_COL_backward_gpu_reserved_peak_mib:
    case PEAKS_COL_optimizer_gpu_reserved_peak_mib:
        return amount(num, r->phase_gpu_reserved_mib[c - PEAKS_COL_forward_gpu_reserved_peak_mib], "%.3f");
    case PEAKS_COL_gpu_allocated_peak_mib: return amount(num, r->gpu_allocated_peak_mib, "%.3f");
    case PEAKS_COL_gpu_reserved_peak_mib: return amount(num, r->gpu_reserved_peak_mib, "%.3f");
    case PEAKS_COL_gpu_context_mib: return amount(num, r->gpu_context_mib, "%.3f");
    case PEAKS_COL_gpu_total_mib: return amount(num, r->gpu_total_mib, "%.3f");
    case PEAKS_COL_gpu_name: return r->gpu_name;
    case PEAKS_COL_cuda_version: return r->cuda_version;
    case PEAKS_COL_driver_version: return r->driver_version;
    case PEAKS_COL_memory_method: return r->memory_method;
    default: return NULL;
    }
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
