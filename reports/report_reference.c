/* report_reference.c: a published measurement table beside ours. Its
 * columns: work, technique, batch, seq_len, peak_above_baseline_mb (decimal
 * megabytes), as in ../shared/reference/smollm2-135m-cpu.csv. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reports/report_sections.h"
#include "util/csv_table.h"

static const double MB_PER_MIB = 1.048576;

/* Our mean peak above baseline (MB) at a point, over repeats; NAN if none. */
static double ours_mb(const struct fit_set *set, const char *technique, int batch, int seq_len)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < set->obs.n_ok; i++) {
        const struct observation *o = &set->obs.ok[i];
        if (!strcmp(o->technique, technique) && o->batch == batch && o->seq_len == seq_len) {
            sum += o->rss_mib * MB_PER_MIB;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

struct reference_row {
    const char *work, *technique;
    int batch, seq_len;
    double mb;
};

static int reference_rows(const struct csv_table *t, struct reference_row *rows, int max)
{
    int c[5] = {csv_table_column(t, "work"), csv_table_column(t, "technique"), csv_table_column(t, "batch"),
                csv_table_column(t, "seq_len"), csv_table_column(t, "peak_above_baseline_mb")};
    for (int i = 0; i < 5; i++)
        if (c[i] < 0)
            return -1;
    int n = 0;
    for (int r = 0; r < t->n_rows && n < max; r++) {
        char *const *f = t->rows[r].fields;
        rows[n++] = (struct reference_row){f[c[0]], f[c[1]], atoi(f[c[2]]), atoi(f[c[3]]), atof(f[c[4]])};
    }
    return n;
}

static void savings_table(FILE *f, const struct fit_set *set, const struct reference_row *rows, int n)
{
    double theirs_full = NAN, ours_full = ours_mb(set, "full", 8, 256);
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].technique, "full") && rows[i].batch == 8 && rows[i].seq_len == 256)
            theirs_full = rows[i].mb;
    fprintf(f, "\nSaving relative to `full` at batch 8, seq_len 256:\n\n"
               "| technique | published | peakfit |\n|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const struct reference_row *r = &rows[i];
        if (r->batch != 8 || r->seq_len != 256 || !strcmp(r->technique, "full") || !strcmp(r->technique, "inference"))
            continue;
        double ours = ours_mb(set, r->technique, 8, 256);
        fprintf(f, "| %s | %+.0f%% | %+.0f%% |\n", r->technique, 100 * (r->mb / theirs_full - 1),
                100 * (ours / ours_full - 1));
    }
}

int section_reference(FILE *f, const struct fit_set *set, const char *reference_csv)
{
    struct csv_table t;
    struct reference_row rows[128];
    char err[600];
    if (csv_table_read(reference_csv, &t, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return -1;
    }
    int n = reference_rows(&t, rows, 128);
    if (n < 0) {
        fprintf(stderr, "peakfit: %s:1: needs columns work, technique, batch, seq_len, peak_above_baseline_mb\n",
                reference_csv);
        csv_table_free(&t);
        return -1;
    }
    fprintf(f, "## Side by side with the published table\n\nReference: `%s`. Both columns are peak above "
               "baseline in MB (10^6 bytes; ours converted from MiB).\n\n"
               "| work | technique | batch | seq_len | published (MB) | peakfit (MB) | peakfit / published |\n"
               "|---|---|---|---|---|---|---|\n", reference_csv);
    for (int i = 0; i < n; i++) {
        double ours = ours_mb(set, rows[i].technique, rows[i].batch, rows[i].seq_len);
        fprintf(f, "| %s | %s | %d | %d | %.0f | ", rows[i].work, rows[i].technique, rows[i].batch,
                rows[i].seq_len, rows[i].mb);
        if (isnan(ours))
            fprintf(f, "not measured | - |\n");
        else
            fprintf(f, "%.0f | %.2f |\n", ours, ours / rows[i].mb);
    }
    savings_table(f, set, rows, n);
    fprintf(f, "\n");
    csv_table_free(&t);
    return 0;
}
