/* observations.c: peaks.csv rows to numbers. Every field is checked by its
 * column's declared type (settings/peaks_columns.h); then the checks that
 * concern the fit (a batch in range, tokens = batch x seq_len). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/observations.h"
#include "core/optimizer.h"
#include "core/technique.h"
#include "sweeps/limits.h"
#include "util/capped_notes.h"
#include "util/csv_table.h"
#include "util/id_index.h"
#include "settings/peaks_columns.h"

static int is_ok(const char *status) { return strcmp(status, "ok") == 0; }

void observation_fields(const struct csv_row *row, const char *f[PEAKS_N_COLUMNS])
{
    for (int c = 0; c < PEAKS_N_COLUMNS; c++)
        f[c] = c < row->n_fields ? row->fields[c] : "";
#define USUAL_BEFORE_ITS_COLUMN(field, size, usual)                                 \
    if ((int)PEAKS_COL_##field >= PEAKS_N_FIXED_COLUMNS && (int)PEAKS_COL_##field >= row->n_fields) \
        f[PEAKS_COL_##field] = usual;
    GROUP_KEY_SETTINGS(USUAL_BEFORE_ITS_COLUMN)
#undef USUAL_BEFORE_ITS_COLUMN
}

/* A whole number that fits an int (a checked INT field may hold up to
 * 2^62); -1 when unknown or out of range. */
static int small(const char *field)
{
    double v = peaks_number(field);
    return v >= INT_MIN && v <= INT_MAX ? (int)v : -1;
}

static void text(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

static void read_fields(const char *const *f, struct observation *o)
{
#define READ_KEY_FIELD(field, size, ...) text(o->field, sizeof o->field, f[PEAKS_COL_##field]);
    GROUP_KEY_ALL(READ_KEY_FIELD)
#undef READ_KEY_FIELD
    text(o->status, sizeof o->status, f[PEAKS_COL_status]);
    text(o->job, sizeof o->job, f[PEAKS_COL_job]);
    o->batch = small(f[PEAKS_COL_batch]);
    o->seq_len = small(f[PEAKS_COL_seq_len]);
    o->tokens = peaks_number(f[PEAKS_COL_tokens]);
    o->rss_mib = peaks_number(f[PEAKS_COL_peak_above_baseline_mib]);
    o->tensor_mib = peaks_number(f[PEAKS_COL_tensor_peak_mib]);
    o->baseline_mib = peaks_number(f[PEAKS_COL_baseline_rss_mib]);
    o->gpu_allocated_mib = peaks_number(f[PEAKS_COL_gpu_allocated_peak_mib]);
    o->gpu_reserved_mib = peaks_number(f[PEAKS_COL_gpu_reserved_peak_mib]);
    o->gpu_context_mib = peaks_number(f[PEAKS_COL_gpu_context_mib]);
    o->weight_mib = peaks_number(f[PEAKS_COL_weight_mib]);
    o->grad_mib = peaks_number(f[PEAKS_COL_grad_mib]);
    o->optimizer_mib = peaks_number(f[PEAKS_COL_optimizer_mib]);
    o->step_mean_s = peaks_number(f[PEAKS_COL_step_mean_s]);
    o->step1_s = peaks_number(f[PEAKS_COL_step1_s]);
    o->build_s = peaks_number(f[PEAKS_COL_build_s]);
    o->wall_s = peaks_number(f[PEAKS_COL_worker_wall_s]);
    o->steps = small(f[PEAKS_COL_steps]);
    o->params = peaks_number(f[PEAKS_COL_params]);
    o->trainable_params = peaks_number(f[PEAKS_COL_trainable_params]);
    text(o->torch_version, sizeof o->torch_version, f[PEAKS_COL_torch_version]);
    text(o->blas, sizeof o->blas, f[PEAKS_COL_blas]);
    text(o->cpu_model, sizeof o->cpu_model, f[PEAKS_COL_cpu_model]);
    text(o->gpu_name, sizeof o->gpu_name, f[PEAKS_COL_gpu_name]);
    text(o->driver_version, sizeof o->driver_version, f[PEAKS_COL_driver_version]);
    o->gpu_total_mib = peaks_number(f[PEAKS_COL_gpu_total_mib]);
    text(o->model_source, sizeof o->model_source, f[PEAKS_COL_model_source]);
    o->threads = f[PEAKS_COL_threads][0] ? small(f[PEAKS_COL_threads]) : 0;
    o->blas_threads = f[PEAKS_COL_blas_threads][0] ? small(f[PEAKS_COL_blas_threads]) : 0;
    text(o->error, sizeof o->error, f[PEAKS_COL_error]);
    o->tree_peak_mib = peaks_number(f[PEAKS_COL_tree_peak_rss_mib]);
    text(o->rank_peaks, sizeof o->rank_peaks, f[PEAKS_COL_rank_peaks_mib]);
    /* Before the column, attention always kept its probabilities. */
    if (!o->attention[0])
        text(o->attention, sizeof o->attention, "eager");
    o->holdout = peaks_number(f[PEAKS_COL_holdout]) == 1;
    /* Before the columns, a training step was AdamW one parameter at a time
     * and freed the gradients. */
    int training = technique_from_name(o->technique) >= 0 &&
                   technique_is_training((pf_technique)technique_from_name(o->technique));
    if (training && !f[PEAKS_COL_optimizer][0] && !f[PEAKS_COL_zero_grad][0]) {
        text(o->optimizer, sizeof o->optimizer, optimizer_name(PF_OPT_ADAMW));
        text(o->zero_grad, sizeof o->zero_grad, zero_grad_name(PF_ZERO_GRAD_NONE));
    }
    /* Before the column: the worker's row, or a command's (its hash unknown). */
    if (!o->measured_by[0])
        text(o->measured_by, sizeof o->measured_by, f[PEAKS_COL_command][0] ? "command" : "worker");
    for (int i = 0; i < PF_PHASE_COUNT; i++) {
        o->phase_mib[i] = peaks_number(f[PEAKS_COL_forward_peak_mib + i]);
        o->phase_end_rss_mib[i] = peaks_number(f[PEAKS_COL_forward_end_rss_mib + i]);
        o->phase_gpu_allocated_mib[i] = peaks_number(f[PEAKS_COL_forward_gpu_allocated_peak_mib + i]);
        o->phase_gpu_reserved_mib[i] = peaks_number(f[PEAKS_COL_forward_gpu_reserved_peak_mib + i]);
    }
}

/* Returns 0, or -1 with why the row cannot be an observation in bad. */
static int read_row(const struct csv_row *row, struct observation *o, char *bad, size_t badlen)
{
    const char *f[PEAKS_N_COLUMNS];
    memset(o, 0, sizeof *o);
    o->line = row->line;
    if (peaks_row_check(row->fields, row->n_fields, bad, badlen) != 0)
        return -1;
    observation_fields(row, f);
    read_fields(f, o);
    double batch = peaks_number(f[PEAKS_COL_batch]), seq = peaks_number(f[PEAKS_COL_seq_len]);
    if (batch < 0 || batch > LIMIT_BATCH_MAX || seq < 0 || seq > LIMIT_SEQ_LEN_MAX || !f[PEAKS_COL_batch][0] ||
        !f[PEAKS_COL_seq_len][0]) {
        snprintf(bad, badlen, "batch \"%.40s\" or seq_len \"%.40s\" is not a whole number from 0 to %ld",
                 f[PEAKS_COL_batch], f[PEAKS_COL_seq_len], LIMIT_BATCH_MAX);
        return -1;
    }
    if (o->tokens != batch * seq) {
        snprintf(bad, badlen, "tokens %.0f is not batch x seq_len = %.0f", o->tokens, batch * seq);
        return -1;
    }
    if (is_ok(o->status) && o->rss_mib < 0) {
        snprintf(bad, badlen, "status ok but no peak_above_baseline_mib");
        return -1;
    }
    return 0;
}

/* What the first pass learns: which rows are usable and which of them is
 * each point's last. */
struct survey {
    unsigned char *usable;
    struct id_index first; /* point id -> its first usable row: where its observation goes */
    struct id_index last;  /* point id -> its last usable row: the observation */
    int n_ok, n_failed;
};

static int survey_rows(const struct csv_table *t, struct survey *s, struct observations *out,
                       struct capped_notes *bad_notes, struct capped_notes *again)
{
    struct observation o;
    char bad[200];
    s->usable = calloc((size_t)t->n_rows + 1, 1);
    if (!s->usable || id_index_init(&s->first, (size_t)t->n_rows) != 0 ||
        id_index_init(&s->last, (size_t)t->n_rows) != 0)
        return -1;
    for (int r = 0; r < t->n_rows; r++) {
        const struct csv_row *row = &t->rows[r];
        if (read_row(row, &o, bad, sizeof bad) != 0) {
            note_row(bad_notes, row->line, "skipped: %s", bad);
            out->n_bad++;
            continue;
        }
        s->usable[r] = 1;
        int earlier = id_index_put(&s->last, row->fields[PEAKS_COL_point_id], r);
        if (earlier < 0)
            id_index_put(&s->first, row->fields[PEAKS_COL_point_id], r);
        if (earlier >= 0) {
            note_row(again, row->line, "point %s again (first at line %d): the later row is used",
                     row->fields[PEAKS_COL_point_id],
                     t->rows[id_index_get(&s->first, row->fields[PEAKS_COL_point_id])].line);
            out->n_superseded++;
            *(is_ok(t->rows[earlier].fields[PEAKS_COL_status]) ? &s->n_ok : &s->n_failed) -= 1;
        }
        *(is_ok(o.status) ? &s->n_ok : &s->n_failed) += 1;
    }
    return 0;
}

/* The second pass: each point's last usable row, in the place of its first
 * (so the order of groups and residuals is the file's). */
static int collect(const struct csv_table *t, const struct survey *s, struct observations *out)
{
    out->ok = malloc((size_t)s->n_ok * sizeof *out->ok + 1);
    out->failed = malloc((size_t)s->n_failed * sizeof *out->failed + 1);
    if (!out->ok || !out->failed)
        return -1;
    for (int r = 0; r < t->n_rows; r++) {
        struct observation o;
        char bad[200];
        const char *id = t->rows[r].fields[PEAKS_COL_point_id];
        if (!s->usable[r] || id_index_get(&s->first, id) != r ||
            read_row(&t->rows[id_index_get(&s->last, id)], &o, bad, sizeof bad) != 0)
            continue;
        if (is_ok(o.status))
            out->ok[out->n_ok++] = o;
        else
            out->failed[out->n_failed++] = o;
    }
    return 0;
}

static int load_rows(const char *path, const struct csv_table *t, struct observations *out, char *err,
                     unsigned long errlen)
{
    struct capped_notes bad_notes = {.path = path}, again = {.path = path};
    for (int i = 0; i < t->n_bad; i++)
        note_row(&bad_notes, t->bad[i].line, "skipped: %s", t->bad[i].reason);
    note_more(&bad_notes, t->n_bad_more);
    out->n_bad = t->n_bad + t->n_bad_more;
    struct survey s = {0};
    int rc = survey_rows(t, &s, out, &bad_notes, &again);
    if (rc == 0)
        rc = collect(t, &s, out);
    notes_end(&bad_notes, "bad rows skipped");
    notes_end(&again, "rows replaced by a later row of their point");
    if (rc != 0)
        snprintf(err, errlen, "%s: out of memory reading its %d rows", path, t->n_rows);
    free(s.usable);
    id_index_free(&s.first);
    id_index_free(&s.last);
    return rc;
}

int observations_load(const char *path, struct observations *out, char *err, unsigned long errlen)
{
    struct csv_table t;
    memset(out, 0, sizeof *out);
    if (csv_table_read(path, &t, err, errlen) != 0)
        return -1;
    int rc = peaks_header_check(t.header, t.n_cols, 1, path, err, errlen);
    if (rc == 0)
        rc = load_rows(path, &t, out, err, errlen);
    if (rc != 0)
        observations_free(out);
    csv_table_free(&t);
    return rc;
}

void observations_free(struct observations *o)
{
    free(o->ok);
    free(o->failed);
    memset(o, 0, sizeof *o);
}

void group_key_of(const struct observation *o, struct group_key *key)
{
#define COPY_FIELD(field, size, ...) snprintf(key->field, sizeof key->field, "%s", o->field);
    GROUP_KEY_ALL(COPY_FIELD)
#undef COPY_FIELD
}
