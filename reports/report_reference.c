/* report_reference.c: a published measurement table beside ours. Its
 * columns: work, technique, batch, seq_len, peak_above_baseline_mb (decimal
 * megabytes), as in ../shared/reference/smollm2-135m-cpu.csv, and an
 * optional model (the model it measured, compared by display name, case
 * aside, with ours). The whole file is checked before report.md is
 * touched: a bad reference leaves it as it was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "reports/markdown.h"
#include "reports/report_sections.h"
#include "sweeps/limits.h"
#include "util/parse.h"

static const double MB_PER_MIB = 1.048576;
static const char *const columns[] = {"work", "technique", "batch", "seq_len", "peak_above_baseline_mb"};
enum { N_COLUMNS = sizeof columns / sizeof columns[0] };

/* Does our peaks.csv model value name the reference's model? */
static int same_model(const char *ours, const char *theirs)
{
    char name[4096];
    return !theirs || !strcasecmp(ours, theirs) || !strcasecmp(model_display_name(ours, name, sizeof name), theirs);
}

/* Our mean peak above baseline (MB) at a point, over repeats; NAN if none. */
static double ours_mb(const struct fit_set *set, const char *model, const char *technique, long batch, long seq_len)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < set->obs.n_ok; i++) {
        const struct observation *o = &set->obs.ok[i];
        if (same_model(o->model, model) && !strcmp(o->technique, technique) && o->batch == batch &&
            o->seq_len == seq_len) {
            sum += o->rss_mib * MB_PER_MIB;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* "a, b": our distinct models by display name; returns how many. */
static int our_models(const struct fit_set *set, char *out, size_t size)
{
    int n = 0;
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < set->obs.n_ok + set->obs.n_failed; i++) {
        const struct observation *o = i < set->obs.n_ok ? &set->obs.ok[i] : &set->obs.failed[i - set->obs.n_ok];
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp((j < set->obs.n_ok ? &set->obs.ok[j] : &set->obs.failed[j - set->obs.n_ok])->model,
                           o->model);
        char name[4096];
        if (!seen && used < size) {
            used += (size_t)snprintf(out + used, size - used, "%s%s", n ? ", " : "",
                                     model_display_name(o->model, name, sizeof name));
            n++;
        }
    }
    return n;
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
            found = same_model(k < set->obs.n_ok ? set->obs.ok[k].model : set->obs.failed[k - set->obs.n_ok].model,
                               ref->rows[i].model);
        if (!found) {
            snprintf(err, errlen, "%s:%d: measured model \"%.200s\", but the results hold %s: not comparable",
                     ref->path, ref->table.rows[i].line, ref->rows[i].model, ours);
            return -1;
        }
    }
    return 0;
}

static int fail(struct reference *ref)
{
    reference_free(ref);
    return -1;
}

int reference_load(const char *path, const struct fit_set *set, struct reference *ref, char *err, size_t errlen)
{
    int col[N_COLUMNS];
    memset(ref, 0, sizeof *ref);
    ref->path = path;
    if (csv_table_read(path, &ref->table, err, errlen) != 0)
        return -1;
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
    return check_models(ref, set, err, errlen) == 0 ? 0 : fail(ref);
}

void reference_free(struct reference *ref)
{
    if (ref->table.header || ref->table.rows)
        csv_table_free(&ref->table);
    free(ref->rows);
    memset(ref, 0, sizeof *ref);
}

/* "+12%", or "not measured" when either side is missing. */
static const char *saving(double value, double full, char *out, size_t size)
{
    if (!isfinite(value) || !isfinite(full) || full <= 0)
        snprintf(out, size, "not measured");
    else
        snprintf(out, size, "%+.0f%%", 100 * (value / full - 1));
    return out;
}

static void savings_table(FILE *f, const struct fit_set *set, const struct reference *ref)
{
    char theirs_text[32], ours_text[32], technique[64];
    fprintf(f, "\nSaving relative to `full` at batch 8, seq_len 256:\n\n"
               "| technique | published | peakfit |\n|---|---|---|\n");
    for (int i = 0; i < ref->n; i++) {
        const struct reference_row *r = &ref->rows[i];
        if (r->batch != 8 || r->seq_len != 256 || !strcmp(r->technique, "full") || !strcmp(r->technique, "inference"))
            continue;
        double theirs_full = NAN;
        for (int j = 0; j < ref->n; j++)
            if (!strcmp(ref->rows[j].technique, "full") && ref->rows[j].batch == 8 && ref->rows[j].seq_len == 256 &&
                (!r->model || !strcmp(ref->rows[j].model, r->model)))
                theirs_full = ref->rows[j].mb;
        double ours_full = ours_mb(set, r->model, "full", 8, 256);
        fprintf(f, "| %s | %s | %s |\n", md_cell(r->technique, technique, sizeof technique),
                saving(r->mb, theirs_full, theirs_text, sizeof theirs_text),
                saving(ours_mb(set, r->model, r->technique, 8, 256), ours_full, ours_text, sizeof ours_text));
    }
}

void section_reference(FILE *f, const struct fit_set *set, const struct reference *ref)
{
    char cell[3][600];
    fprintf(f, "## Side by side with the published table\n\nReference: `%s`. Both columns are peak above "
               "baseline in MB (10^6 bytes; ours converted from MiB).%s\n\n"
               "| model | work | technique | batch | seq_len | published (MB) | peakfit (MB) | peakfit / published |\n"
               "|---|---|---|---|---|---|---|---|\n", md_cell(ref->path, cell[0], sizeof cell[0]),
            ref->has_model ? "" : " The reference names no model: that it measured the same model as ours "
                                  "was not checked.");
    for (int i = 0; i < ref->n; i++) {
        const struct reference_row *r = &ref->rows[i];
        double ours = ours_mb(set, r->model, r->technique, r->batch, r->seq_len);
        fprintf(f, "| %s | %s | %s | %ld | %ld | %.0f | ", r->model ? md_cell(r->model, cell[0], sizeof cell[0]) : "",
                md_cell(r->work, cell[1], sizeof cell[1]), md_cell(r->technique, cell[2], sizeof cell[2]), r->batch,
                r->seq_len, r->mb);
        if (isnan(ours))
            fprintf(f, "not measured | - |\n");
        else if (r->mb <= 0)
            fprintf(f, "%.0f | - |\n", ours);
        else
            fprintf(f, "%.0f | %.2f |\n", ours, ours / r->mb);
    }
    savings_table(f, set, ref);
    fprintf(f, "\n");
}
