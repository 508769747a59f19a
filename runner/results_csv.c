/* results_csv.c: the columns of peaks.csv, and appending rows safely. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "runner/results_csv.h"
#include "sweeps/technique.h"
#include "util/csv_table.h"

/* Units are part of each name. Append new columns at the end only. */
enum column {
    C_POINT_ID, C_JOB, C_MODEL, C_DEVICE, C_TECHNIQUE, C_BATCH, C_SEQ_LEN, C_TOKENS, C_REPEAT,
    C_STEPS, C_STATUS, C_EXIT_CODE, C_SIGNAL, C_PARAMS, C_TRAINABLE, C_WEIGHT, C_GRAD,
    C_OPTIMIZER, C_BASELINE, C_PEAK, C_PEAK_ABOVE, C_RUSAGE, C_TENSOR_PEAK, C_BUILD, C_STEP1,
    C_STEP_MEAN, C_WALL, C_LOSS, C_TORCH, C_THREADS, C_BLAS, C_BLAS_THREADS, C_CPU,
    C_LORA_RANK, C_LORA_TARGETS, C_FINISHED, C_ERROR, N_COLUMNS
};

static const char *const columns[N_COLUMNS] = {
    "point_id", "job", "model", "device", "technique", "batch", "seq_len", "tokens", "repeat",
    "steps", "status", "exit_code", "signal", "params", "trainable_params", "weight_mib",
    "grad_mib", "optimizer_mib", "baseline_rss_mib", "peak_rss_mib", "peak_above_baseline_mib",
    "rusage_maxrss_mib", "tensor_peak_mib", "build_s", "step1_s", "step_mean_s", "worker_wall_s",
    "loss", "torch_version", "threads", "blas", "blas_threads", "cpu_model", "lora_rank",
    "lora_targets", "finished_at", "error"};

const char *results_header(void)
{
    static char header[1024];
    if (!header[0]) {
        size_t used = 0;
        for (int i = 0; i < N_COLUMNS; i++)
            used = csv_append_field(header, used, sizeof header, columns[i]);
        header[used] = '\0';
    }
    return header;
}

static int check_existing(const char *path, const struct csv_table *t, char *err, size_t errlen)
{
    if (t->n_cols != N_COLUMNS || strcmp(t->header[0], columns[0]) != 0 ||
        csv_table_column(t, "error") != C_ERROR) {
        snprintf(err, errlen, "%s:1: header is not this version's peaks.csv header; "
                 "move the file away or use another -o DIR", path);
        return -1;
    }
    for (int i = 0; i < t->n_bad; i++) {
        if (t->bad[i].line == t->bad[t->n_bad - 1].line && t->truncated)
            continue;
        snprintf(err, errlen, "%s:%d: %s; fix or remove that row before resuming",
                 path, t->bad[i].line, t->bad[i].reason);
        return -1;
    }
    return 0;
}

static int read_done(const char *path, int fd, char ***done, int *n_done, char *err, size_t errlen)
{
    struct csv_table t;
    if (csv_table_read(path, &t, err, errlen) != 0)
        return -1;
    int rc = check_existing(path, &t, err, errlen);
    if (rc == 0 && t.truncated) {
        fprintf(stderr, "peakfit: %s:%d: truncated last row removed (an interrupted write); "
                "its point will run again\n", path, t.bad[t.n_bad - 1].line);
        if (ftruncate(fd, t.complete_bytes) != 0) {
            snprintf(err, errlen, "%s: cannot truncate: %s", path, strerror(errno));
            rc = -1;
        }
    }
    *done = calloc((size_t)t.n_rows + 1, sizeof **done);
    *n_done = 0;
    for (int i = 0; rc == 0 && i < t.n_rows; i++)
        (*done)[(*n_done)++] = strdup(t.rows[i].fields[0]);
    csv_table_free(&t);
    return rc;
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

int results_open(const char *path, char ***done, int *n_done, char *err, size_t errlen)
{
    *done = NULL;
    *n_done = 0;
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno));
        return -1;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    int rc;
    if (size == 0) {
        char line[1100];
        int n = snprintf(line, sizeof line, "%s\n", results_header());
        rc = write_all(fd, line, (size_t)n);
        if (rc != 0)
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        *done = calloc(1, sizeof **done);
    } else {
        rc = read_done(path, fd, done, n_done, err, errlen);
    }
    if (rc != 0) {
        results_free_done(*done, *n_done);
        *done = NULL;
        close(fd);
        return -1;
    }
    return fd;
}

void results_free_done(char **done, int n_done)
{
    for (int i = 0; i < n_done; i++)
        free(done[i]);
    free(done);
}

typedef char field_text[48];

static void num(field_text out, double v, const char *fmt)
{
    if (v < 0)
        out[0] = '\0'; /* unknown: the worker never reported it */
    else
        snprintf(out, sizeof(field_text), fmt, v);
}

static double mib(long long bytes) { return bytes < 0 ? -1 : bytes / 1048576.0; }

static double difference(double a, double b) { return a < 0 || b < 0 ? -1 : a - b; }

static void step_times(const struct point_result *r, field_text first, field_text mean)
{
    double sum = 0;
    for (int i = 1; i < r->n_steps; i++)
        sum += r->step_s[i];
    num(first, r->n_steps > 0 ? r->step_s[0] : -1, "%.4f");
    /* Steps after the first: the first also allocates AdamW's state. */
    num(mean, r->n_steps > 1 ? sum / (r->n_steps - 1) : r->n_steps == 1 ? r->step_s[0] : -1, "%.4f");
}

static void fill_numbers(field_text f[N_COLUMNS], const struct grid_point *p, const struct point_result *r)
{
    num(f[C_BATCH], p->batch, "%.0f");
    num(f[C_SEQ_LEN], p->seq_len, "%.0f");
    num(f[C_TOKENS], (double)p->batch * p->seq_len, "%.0f");
    num(f[C_REPEAT], p->repeat, "%.0f");
    num(f[C_STEPS], technique_runs_steps(p->technique) ? p->job->steps : 0, "%.0f");
    snprintf(f[C_EXIT_CODE], sizeof(field_text), "%d", r->exit_code);
    snprintf(f[C_SIGNAL], sizeof(field_text), "%d", r->signal);
    num(f[C_PARAMS], (double)r->params, "%.0f");
    num(f[C_TRAINABLE], (double)r->trainable_params, "%.0f");
    num(f[C_WEIGHT], mib(r->weight_bytes), "%.3f");
    num(f[C_GRAD], mib(r->grad_bytes), "%.3f");
    num(f[C_OPTIMIZER], mib(r->optimizer_bytes), "%.3f");
    num(f[C_BASELINE], r->baseline_rss_mib, "%.3f");
    num(f[C_PEAK], r->peak_rss_mib, "%.3f");
    num(f[C_PEAK_ABOVE], difference(r->peak_rss_mib, r->baseline_rss_mib), "%.3f");
    num(f[C_RUSAGE], r->rusage_maxrss_mib, "%.3f");
    num(f[C_TENSOR_PEAK], difference(r->tensor_peak_mib, r->baseline_tensor_mib), "%.3f");
    num(f[C_BUILD], r->build_s, "%.4f");
    step_times(r, f[C_STEP1], f[C_STEP_MEAN]);
    num(f[C_WALL], r->wall_s, "%.3f");
    num(f[C_LOSS], r->loss, "%.5f");
    num(f[C_THREADS], r->threads, "%.0f");
    num(f[C_BLAS_THREADS], r->blas_threads, "%.0f");
    int lora = technique_is_lora(p->technique);
    num(f[C_LORA_RANK], lora ? p->job->lora_rank : -1, "%.0f");
    if (lora)
        lora_targets_to_list(p->job->lora_targets, f[C_LORA_TARGETS], sizeof(field_text));
    time_t now = time(NULL);
    strftime(f[C_FINISHED], sizeof(field_text), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

int results_append(int fd, const struct grid_point *p, const struct point_result *r)
{
    field_text f[N_COLUMNS] = {{0}};
    fill_numbers(f, p, r);
    char error[sizeof r->error];
    snprintf(error, sizeof error, "%s", r->error);
    for (char *c = error; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' '; /* a row is one line: the reader relies on it */
    const char *text[N_COLUMNS];
    for (int i = 0; i < N_COLUMNS; i++)
        text[i] = f[i];
    text[C_POINT_ID] = p->id;
    text[C_JOB] = p->job->name;
    text[C_MODEL] = p->model;
    text[C_DEVICE] = p->device;
    text[C_TECHNIQUE] = technique_name(p->technique);
    text[C_STATUS] = r->status;
    text[C_TORCH] = r->torch_version;
    text[C_BLAS] = r->blas;
    text[C_CPU] = r->cpu_model;
    text[C_ERROR] = error;
    char line[8192];
    size_t used = 0;
    for (int i = 0; i < N_COLUMNS; i++)
        used = csv_append_field(line, used, sizeof line - 1, text[i]);
    if (used >= sizeof line - 1) {
        errno = EOVERFLOW;
        return -1;
    }
    line[used++] = '\n';
    return write_all(fd, line, used);
}
