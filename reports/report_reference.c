/* report_reference.c: a published measurement table (read by
 * reference_load.c) beside ours: the savings at batch 8, seq_len 256 and
 * the growth per sample, each cell ours and its ratio to the published. */
#include <math.h>
#include <string.h>
#include "reports/markdown.h"
#include "reports/report_sections.h"
#include "core/attention.h"
#include "util/name_list.h"

static const double MB_PER_MIB = 1.048576;

/* Which of our peaks a column shows: the attention implementation, and
 * RSS above baseline (what the published table measured) or the counting
 * allocator's peak of live tensor bytes. */
struct our_column {
    const char *attention;
    int allocator;
};

/* Our mean peak (MB) at a point, over repeats; NAN if none. */
static double ours_mb(const struct fit_set *set, const struct our_column *c, const char *model, const char *technique,
                      long batch, long seq_len)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < set->obs.n_ok; i++) {
        const struct observation *o = &set->obs.ok[i];
        if (reference_same_model(o->model, model) && !strcmp(o->technique, technique) && o->batch == batch &&
            o->seq_len == seq_len && !strcmp(o->attention, c->attention)) {
            sum += (c->allocator ? o->tensor_mib : o->rss_mib) * MB_PER_MIB;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* The attention implementations our results hold, in the table's order
 * (sdpa, eager); returns how many. */
static int our_attentions(const struct fit_set *set, const char *out[PF_ATTN_COUNT])
{
    int n = 0;
    for (int a = 0; a < PF_ATTN_COUNT; a++)
        for (int i = 0; i < set->obs.n_ok; i++)
            if (!strcmp(set->obs.ok[i].attention, attention_name((pf_attention)a))) {
                out[n++] = attention_name((pf_attention)a);
                break;
            }
    return n;
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

/* " 1234 | 1.05 |": ours, and its ratio to the published value. */
static void value_and_ratio(FILE *f, double ours, double published)
{
    if (isnan(ours))
        fprintf(f, " not measured | - |");
    else if (!isfinite(published) || published <= 0)
        fprintf(f, " %.0f | - |", ours);
    else
        fprintf(f, " %.0f | %.2f |", ours, ours / published);
}

/* The published full row at batch 8, seq_len 256 of r's model, in MB;
 * NAN when there is none. */
static double published_full(const struct reference_row *r) { return r->full_8_256 ? r->full_8_256->mb : NAN; }

static void savings_table(FILE *f, const struct fit_set *set, const struct reference *ref, const char *const *att,
                          int n_att)
{
    char text[32], technique[64];
    fprintf(f, "\nSaving relative to `full` at batch 8, seq_len 256 (peak above baseline, RSS):\n\n"
               "| technique | published |");
    for (int a = 0; a < n_att; a++)
        fprintf(f, " peakfit, %s |", att[a]);
    fprintf(f, "\n|---|---|");
    for (int a = 0; a < n_att; a++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (int i = 0; i < ref->n; i++) {
        const struct reference_row *r = &ref->rows[i];
        if (r->batch != 8 || r->seq_len != 256 || !strcmp(r->technique, "full") || !strcmp(r->technique, "inference"))
            continue;
        fprintf(f, "| %s | %s |", md_cell(r->technique, technique, sizeof technique),
                saving(r->mb, published_full(r), text, sizeof text));
        for (int a = 0; a < n_att; a++) {
            struct our_column c = {att[a], 0};
            fprintf(f, " %s |", saving(ours_mb(set, &c, r->model, r->technique, 8, 256),
                                       ours_mb(set, &c, r->model, "full", 8, 256), text, sizeof text));
        }
        fprintf(f, "\n");
    }
}

/* The end of a table's header: each attention's four cells after the
 * n_fixed before them, and the separator line. */
static void attention_header(FILE *f, int n_fixed, const char *const *att, int n_att)
{
    for (int a = 0; a < n_att; a++)
        fprintf(f, " %s, RSS | ratio | %s, allocator | ratio |", att[a], att[a]);
    fprintf(f, "\n|");
    for (int i = 0; i < n_fixed + 4 * n_att; i++)
        fprintf(f, "---|");
    fprintf(f, "\n");
}

/* Is r the smallest nonzero batch of a series of three or more batches? */
static int starts_long_series(const struct reference_row *r)
{
    if (!r->starts_series)
        return 0;
    int batches = 0;
    for (const struct reference_row *o = r; o; o = o->next)
        batches++;
    return batches >= 3;
}

/* Least-squares slope of peak against batch over the series from first
 * on: column NULL for the published peaks, else ours; NAN where one of
 * ours is missing. */
static double series_slope(const struct fit_set *set, const struct reference_row *first,
                           const struct our_column *c)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const struct reference_row *o = first; o; o = o->next) {
        double x = (double)o->batch, y = c ? ours_mb(set, c, o->model, o->technique, o->batch, o->seq_len) : o->mb;
        n++, sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* The batches of the series from first on, "1, 2, 4, 8". */
static const char *series_batches(const struct reference_row *first, char *out, size_t size)
{
    struct name_list l;
    name_list_start(&l, out, size);
    for (const struct reference_row *o = first; o && !name_list_full(&l); o = o->next)
        name_list_addf(&l, "%ld", o->batch);
    return out;
}

/* One row: the least-squares growth per sample over a whole series, which
 * one noisy pair of readings cannot swing the way it swings a difference. */
static void growth_fit_row(FILE *f, const struct fit_set *set, const struct reference_row *first,
                           const char *const *att, int n_att)
{
    char technique[64], batches[128];
    double published = series_slope(set, first, NULL);
    fprintf(f, "| %s | %ld | %s (least squares) | %.0f |", md_cell(first->technique, technique, sizeof technique),
            first->seq_len, series_batches(first, batches, sizeof batches), published);
    for (int a = 0; a < n_att; a++)
        for (int alloc = 0; alloc <= 1; alloc++) {
            struct our_column c = {att[a], alloc};
            value_and_ratio(f, series_slope(set, first, &c), published);
        }
    fprintf(f, "\n");
}

/* What one more sample costs between two published batches, published
 * and ours: the activation slope the calculator multiplies. */
static void growth_table(FILE *f, const struct fit_set *set, const struct reference *ref, const char *const *att,
                         int n_att)
{
    char technique[64];
    fprintf(f, "\nGrowth per sample between consecutive published batches (MB per sample: the difference of "
               "the two peaks divided by the difference of the batches), and over each series of three or more "
               "batches (the least-squares slope of peak against batch):\n\n| technique | seq_len | batches | "
               "published |");
    attention_header(f, 4, att, n_att);
    for (int i = 0; i < ref->n; i++) {
        const struct reference_row *r = &ref->rows[i], *n = r->next;
        if (!n || r->batch == 0)
            continue;
        double db = (double)(n->batch - r->batch), published = (n->mb - r->mb) / db;
        fprintf(f, "| %s | %ld | %ld → %ld | %.0f |", md_cell(r->technique, technique, sizeof technique), r->seq_len,
                r->batch, n->batch, published);
        for (int a = 0; a < n_att; a++)
            for (int alloc = 0; alloc <= 1; alloc++) {
                struct our_column c = {att[a], alloc};
                double ours = (ours_mb(set, &c, n->model, n->technique, n->batch, n->seq_len) -
                               ours_mb(set, &c, r->model, r->technique, r->batch, r->seq_len)) / db;
                value_and_ratio(f, ours, published);
            }
        fprintf(f, "\n");
    }
    for (int i = 0; i < ref->n; i++)
        if (starts_long_series(&ref->rows[i]))
            growth_fit_row(f, set, &ref->rows[i], att, n_att);
}

void section_reference(FILE *f, const struct fit_set *set, const struct reference *ref)
{
    char cell[3][600];
    const char *att[PF_ATTN_COUNT];
    int n_att = our_attentions(set, att);
    fprintf(f, "## Side by side with the published table\n\nReference: %s. Published: peak above baseline in "
               "MB (10^6 bytes). Ours, in MB converted from MiB, for each attention implementation measured: "
               "*RSS*, the worker's VmHWM above its baseline (what the published table measured), and "
               "*allocator*, the counting allocator's peak of live tensor bytes (no malloc caching); each with "
               "its ratio to the published value.%s\n\n"
               "| model | work | technique | batch | seq_len | published (MB) |",
            md_cell(ref->path, cell[0], sizeof cell[0]),
            ref->has_model ? "" : " The reference names no model: that it measured the same model as ours "
                                  "was not checked.");
    attention_header(f, 6, att, n_att);
    for (int i = 0; i < ref->n; i++) {
        const struct reference_row *r = &ref->rows[i];
        fprintf(f, "| %s | %s | %s | %ld | %ld | %.0f |", r->model ? md_cell(r->model, cell[0], sizeof cell[0]) : "",
                md_cell(r->work, cell[1], sizeof cell[1]), md_cell(r->technique, cell[2], sizeof cell[2]), r->batch,
                r->seq_len, r->mb);
        for (int a = 0; a < n_att; a++)
            for (int alloc = 0; alloc <= 1; alloc++) {
                struct our_column c = {att[a], alloc};
                value_and_ratio(f, ours_mb(set, &c, r->model, r->technique, r->batch, r->seq_len), r->mb);
            }
        fprintf(f, "\n");
    }
    growth_table(f, set, ref, att, n_att);
    savings_table(f, set, ref, att, n_att);
    fprintf(f, "\n");
}
