/* observations.c: peaks.csv rows to numbers, each field checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/observations.h"
#include <stddef.h>
#include "util/csv_table.h"
#include "util/parse.h"

static const char *const needed[] = {
    "model", "device", "technique", "status", "batch", "seq_len", "tokens",
    "peak_above_baseline_mib", "tensor_peak_mib", "baseline_rss_mib", "weight_mib",
    "grad_mib", "optimizer_mib", "step_mean_s", "params", "trainable_params", "step1_s", "build_s",
    "worker_wall_s", "steps"};
enum { N_NEEDED = sizeof needed / sizeof needed[0] };

/* A number field: empty means unknown (-1); anything else must parse. */
static int number(const char *text, double *out)
{
    if (!text[0]) {
        *out = -1;
        return 0;
    }
    return parse_double(text, -1e18, 1e18, out);
}

static int read_row(const struct csv_row *row, const int *col, struct observation *o, char *bad, size_t badlen)
{
    memset(o, 0, sizeof *o);
    o->line = row->line;
    char *const *f = row->fields;
    snprintf(o->model, sizeof o->model, "%s", f[col[0]]);
    snprintf(o->device, sizeof o->device, "%s", f[col[1]]);
    snprintf(o->technique, sizeof o->technique, "%s", f[col[2]]);
    snprintf(o->status, sizeof o->status, "%s", f[col[3]]);
    double steps = 0;
    double *targets[] = {NULL, NULL, NULL, NULL, NULL, NULL, &o->tokens, &o->rss_mib,
                         &o->tensor_mib, &o->baseline_mib, &o->weight_mib, &o->grad_mib,
                         &o->optimizer_mib, &o->step_mean_s, &o->params, &o->trainable_params,
                         &o->step1_s, &o->build_s, &o->wall_s, &steps};
    long batch, seq;
    if (parse_long(f[col[4]], 0, 1000000, &batch) || parse_long(f[col[5]], 0, 1000000, &seq)) {
        snprintf(bad, badlen, "batch \"%.40s\" or seq_len \"%.40s\" is not a whole number from 0 to 1000000",
                 f[col[4]], f[col[5]]);
        return -1;
    }
    o->batch = (int)batch;
    o->seq_len = (int)seq;
    for (int i = 6; i < N_NEEDED; i++) {
        if (number(f[col[i]], targets[i]) != 0) {
            snprintf(bad, badlen, "%s \"%.40s\" is not a finite number", needed[i], f[col[i]]);
            return -1;
        }
    }
    o->steps = (int)steps;
    if (o->tokens != (double)batch * seq) {
        snprintf(bad, badlen, "tokens %.0f is not batch x seq_len = %ld", o->tokens, batch * seq);
        return -1;
    }
    if (strcmp(o->status, "ok") == 0 && o->rss_mib < 0) {
        snprintf(bad, badlen, "status ok but no peak_above_baseline_mib");
        return -1;
    }
    return 0;
}

/* The optional columns that say where a point was measured. */
static void read_environment(const struct csv_table *t, const struct csv_row *row, struct observation *o)
{
    int c;
    if ((c = csv_table_column(t, "torch_version")) >= 0)
        snprintf(o->torch_version, sizeof o->torch_version, "%s", row->fields[c]);
    if ((c = csv_table_column(t, "blas")) >= 0)
        snprintf(o->blas, sizeof o->blas, "%s", row->fields[c]);
    if ((c = csv_table_column(t, "cpu_model")) >= 0)
        snprintf(o->cpu_model, sizeof o->cpu_model, "%s", row->fields[c]);
    if ((c = csv_table_column(t, "error")) >= 0)
        snprintf(o->error, sizeof o->error, "%s", row->fields[c]);
    o->threads = (c = csv_table_column(t, "threads")) >= 0 ? atoi(row->fields[c]) : 0;
    o->blas_threads = (c = csv_table_column(t, "blas_threads")) >= 0 ? atoi(row->fields[c]) : 0;
}

static void add(struct observation **list, int *n, const struct observation *o)
{
    *list = realloc(*list, (size_t)(*n + 1) * sizeof **list);
    (*list)[(*n)++] = *o;
}

int observations_load(const char *path, struct observations *out, char *err, unsigned long errlen)
{
    struct csv_table t;
    int col[N_NEEDED];
    memset(out, 0, sizeof *out);
    if (csv_table_read(path, &t, err, errlen) != 0)
        return -1;
    for (int i = 0; i < N_NEEDED; i++) {
        if ((col[i] = csv_table_column(&t, needed[i])) < 0) {
            snprintf(err, errlen, "%s:1: no column %s: not a peakfit peaks.csv", path, needed[i]);
            csv_table_free(&t);
            return -1;
        }
    }
    for (int i = 0; i < t.n_bad; i++)
        fprintf(stderr, "peakfit: %s:%d: skipped: %s\n", path, t.bad[i].line, t.bad[i].reason);
    out->n_bad = t.n_bad;
    for (int r = 0; r < t.n_rows; r++) {
        struct observation o;
        char bad[200];
        if (read_row(&t.rows[r], col, &o, bad, sizeof bad) != 0) {
            fprintf(stderr, "peakfit: %s:%d: skipped: %s\n", path, t.rows[r].line, bad);
            out->n_bad++;
            continue;
        }
        read_environment(&t, &t.rows[r], &o);
        if (strcmp(o.status, "ok") == 0) {
            add(&out->ok, &out->n_ok, &o);
        } else {
            add(&out->failed, &out->n_failed, &o);
        }
    }
    csv_table_free(&t);
    return 0;
}

void observations_free(struct observations *o)
{
    free(o->ok);
    free(o->failed);
    memset(o, 0, sizeof *o);
}
