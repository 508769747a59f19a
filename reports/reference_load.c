/* reference_load.c: reads a published measurement table (report
 * --reference) and checks it against our results. Its columns: work,
 * technique, batch, seq_len, peak_above_baseline_mb (decimal megabytes), as
 * in bench/reference/smollm2-135m-cpu.csv, and an optional model (the
 * model it measured, compared by display name, case aside, with ours). The
 * whole file is checked before report.md is touched: a bad reference leaves
 * it as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "reports/reference.h"
#include "sweeps/limits.h"
#include "core/technique.h"
#include "util/id_index.h"
#include "util/name_list.h"
#include "util/parse.h"

static const char *const columns[] = {"work", "technique", "batch", "seq_len", "peak_above_baseline_mb"};
enum { N_COLUMNS = sizeof columns / sizeof columns[0] };

/* reference.h */
int reference_same_model(const char *ours, const char *theirs)
{
    char name[4096];
    return !theirs || !strcasecmp(ours, theirs) || !strcasecmp(model_display_name(ours, name, sizeof name), theirs);
}

/* "a, b": our distinct models by display name; returns how many. */
static int our_models(const struct fit_set *set, char *out, size_t size)
{
    struct name_list l;
    name_list_start(&l, out, size);
    for (int i = 0; i < set->obs.n_ok + set->obs.n_failed; i++) {
        const struct observation *o = i < set->obs.n_ok ? &set->obs.ok[i] : &set->obs.failed[i - set->obs.n_ok];
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp((j < set->obs.n_ok ? &set->obs.ok[j] : &set->obs.failed[j - set->obs.n_ok])->model,
                           o->model);
        char name[4096];
        if (!seen && !name_list_full(&l))
            name_list_add(&l, model_display_name(o->model, name, sizeof name));
    }
    return l.n;
}

static int read_row(const struct reference *ref, const struct csv_row *row, const int *col, int model_col,
                    struct reference_row *r, char *err, size_t errlen)
{
    char *const *f = row->fields;
    *r = (struct reference_row){.model = model_col >= 0 ? f[model_col] : NULL, .work = f[col[0]],
                                .technique = f[col[1]]};
    if (parse_long(f[col[2]], 0, LIMIT_BATCH_MAX, &r->batch) || parse_long(f[col[3]], 0, LIMIT_SEQ_LEN_MAX, &r->seq_len)) {
        snprintf(err, errlen, "%s:%d: batch \"%.40s\" or seq_len \"%.40s\" is not a whole number from 0 to %ld",
                 ref->path, row->line, f[col[2]], f[col[3]], LIMIT_BATCH_MAX);
        return -1;
    }
    if (technique_from_name(r->technique) < 0) {
        snprintf(err, errlen, "%s:%d: technique \"%.40s\" is not one of %s", ref->path, row->line, r->technique,
                 technique_names());
        return -1;
    }
    if (parse_double(f[col[4]], 0, 1e12, &r->mb)) {
        snprintf(err, errlen, "%s:%d: peak_above_baseline_mb \"%.40s\" is not a number of megabytes",
                 ref->path, row->line, f[col[4]]);
        return -1;
    }
    return 0;
}

static int check_models(const struct reference *ref, const struct fit_set *set, char *err, size_t errlen)
{
    char ours[1024];
    int n_ours = our_models(set, ours, sizeof ours);
    if (!ref->has_model && n_ours > 1) {
        snprintf(err, errlen, "%s: no model column, and the results hold more than one model (%s): add a "
                 "model column naming the model it measured", ref->path, ours);
        return -1;
    }
    if (!ref->has_model) {
        fprintf(stderr, "peakfit: warning: %s has no model column: cannot check that it measured the same "
                "model as ours (%s)\n", ref->path, ours);
        return 0;
    }
    for (int i = 0; i < ref->n; i++) {
        int found = 0;
        for (int k = 0; k < set->obs.n_ok + set->obs.n_failed && !found; k++)
            found = reference_same_model(k < set->obs.n_ok ? set->obs.ok[k].model : set->obs.failed[k - set->obs.n_ok].model,
                               ref->rows[i].model);
        if (!found) {
            snprintf(err, errlen, "%s:%d: measured model \"%.200s\", but the results hold %s: not comparable",
                     ref->path, ref->table.rows[i].line, ref->rows[i].model, ours);
            return -1;
        }
    }
    return 0;
}

/* Orders rows by series (model, work, technique, seq_len), then batch,
 * then place in the file. */
static int series_order(const void *pa, const void *pb)
{
    const struct reference_row *a = *(const struct reference_row *const *)pa,
                               *b = *(const struct reference_row *const *)pb;
    int c = a->model && b->model ? strcmp(a->model, b->model) : 0;
    c = c ? c : strcmp(a->work, b->work);
    c = c ? c : strcmp(a->technique, b->technique);
    c = c ? c : (a->seq_len > b->seq_len) - (a->seq_len < b->seq_len);
    c = c ? c : (a->batch > b->batch) - (a->batch < b->batch);
    return c ? c : (a > b) - (a < b);
}

static int same_series(const struct reference_row *a, const struct reference_row *b)
{
    return a->seq_len == b->seq_len && !strcmp(a->work, b->work) && !strcmp(a->technique, b->technique) &&
           (!a->model || !b->model || !strcmp(a->model, b->model));
}

/* One series, sorted[0..n): each row's next is the first row (in file
 * order) of the next larger batch; the rows of the smallest nonzero batch
 * start it. */
static void link_one_series(struct reference_row **sorted, int n)
{
    int nonzero_seen = 0;
    for (int i = 0; i < n;) {
        int end = i + 1;
        while (end < n && sorted[end]->batch == sorted[i]->batch)
            end++;
        int starts = sorted[i]->batch > 0 && !nonzero_seen;
        nonzero_seen |= sorted[i]->batch > 0;
        for (int k = i; k < end; k++) {
            sorted[k]->next = end < n ? sorted[end] : NULL;
            sorted[k]->starts_series = starts;
        }
        i = end;
    }
}

/* Each row's full row at batch 8, seq_len 256: the first such of its model. */
static int link_full_rows(struct reference *ref)
{
    struct id_index first;
    if (id_index_init(&first, (size_t)ref->n) != 0)
        return -1;
    for (int i = 0; i < ref->n; i++) {
        const struct reference_row *r = &ref->rows[i];
        const char *model = r->model ? r->model : "";
        if (!strcmp(r->technique, "full") && r->batch == 8 && r->seq_len == 256 && id_index_get(&first, model) < 0)
            id_index_put(&first, model, i);
    }
    for (int i = 0; i < ref->n; i++) {
        int k = id_index_get(&first, ref->rows[i].model ? ref->rows[i].model : "");
        ref->rows[i].full_8_256 = k >= 0 ? &ref->rows[k] : NULL;
    }
    id_index_free(&first);
    return 0;
}

/* The links walked by the growth and savings tables: O(n log n) once,
 * where a scan per row was O(n^2) (49 s for 40,000 rows). */
static int link_rows(struct reference *ref)
{
    struct reference_row **sorted = malloc((size_t)ref->n * sizeof *sorted);
    if (!sorted)
        return -1;
    for (int i = 0; i < ref->n; i++)
        sorted[i] = &ref->rows[i];
    qsort(sorted, (size_t)ref->n, sizeof *sorted, series_order);
    for (int i = 0; i < ref->n;) {
        int end = i + 1;
        while (end < ref->n && same_series(sorted[end], sorted[i]))
            end++;
        link_one_series(sorted + i, end - i);
        i = end;
    }
    free(sorted);
    return link_full_rows(ref);
}

static int fail(struct reference *ref)
{
    reference_free(ref);
    return -1;
}

/* A column named twice: which of the two is meant cannot be guessed. */
static int duplicate_column(const struct reference *ref, char *err, size_t errlen)
{
    const struct csv_table *t = &ref->table;
    for (int i = 0; i < t->n_cols; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(t->header[i], t->header[j])) {
                snprintf(err, errlen, "%s:1: column %.64s appears twice (columns %d and %d)", ref->path, t->header[i],
                         j + 1, i + 1);
                return 1;
            }
    return 0;
}

int reference_load(const char *path, const struct fit_set *set, struct reference *ref, char *err, size_t errlen)
{
    int col[N_COLUMNS];
    memset(ref, 0, sizeof *ref);
    ref->path = path;
    if (csv_table_read_as(path, &ref->table, CSV_UNENDED_ROW, err, errlen) != 0)
        return -1;
    if (duplicate_column(ref, err, errlen))
        return fail(ref);
    for (int i = 0; i < N_COLUMNS; i++)
        if ((col[i] = csv_table_column(&ref->table, columns[i])) < 0) {
            snprintf(err, errlen, "%s:1: no column %s (a reference needs work, technique, batch, seq_len, "
                     "peak_above_baseline_mb, and may have model)", path, columns[i]);
            return fail(ref);
        }
    if (ref->table.n_bad > 0) {
        snprintf(err, errlen, "%s:%d: %s", path, ref->table.bad[0].line, ref->table.bad[0].reason);
        return fail(ref);
    }
    if (ref->table.n_rows == 0) {
        snprintf(err, errlen, "%s: no rows", path);
        return fail(ref);
    }
    int model_col = csv_table_column(&ref->table, "model");
    ref->has_model = model_col >= 0;
    ref->rows = calloc((size_t)ref->table.n_rows, sizeof *ref->rows);
    if (!ref->rows) {
        snprintf(err, errlen, "%s: out of memory", path);
        return fail(ref);
    }
    for (ref->n = 0; ref->n < ref->table.n_rows; ref->n++)
        if (read_row(ref, &ref->table.rows[ref->n], col, model_col, &ref->rows[ref->n], err, errlen) != 0)
            return fail(ref);
    if (check_models(ref, set, err, errlen) != 0)
        return fail(ref);
    if (link_rows(ref) != 0) {
        snprintf(err, errlen, "%s: out of memory", path);
        return fail(ref);
    }
    return 0;
}

void reference_free(struct reference *ref)
{
    if (ref->table.header || ref->table.rows)
        csv_table_free(&ref->table);
    free(ref->rows);
    memset(ref, 0, sizeof *ref);
}
