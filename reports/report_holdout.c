/* report_holdout.c: report.md's held-out points, the fit's own test: each
 * one's measured peak, the prediction with its 95% interval, the error. */
#include <math.h>
#include <stdio.h>
#include "reports/markdown.h"
#include "reports/report_sections.h"

static void held_rows(FILE *f, const struct group_fit *g, double *sum_abs, int *n, int *n_inside)
{
    for (int i = 0; i < g->n_held; i++) {
        const struct observation *p = g->held[i];
        double err = group_held_error_pct(g, i);
        int inside = group_held_inside(g, i);
        md_key_cells(f, &g->key);
        fprintf(f, "| %d | %d | %.1f | %.1f ± %.1f | %+.1f%% | %s |\n", p->batch, p->seq_len, g->held_y[i],
                g->held_predicted[i], g->held_ci95[i], err, inside ? "yes" : "no");
        *sum_abs += fabs(err);
        *n_inside += inside;
        (*n)++;
    }
}

static void held_table(FILE *f, const struct fit_set *set, int allocator_level, double *sum_abs, int *n,
                       int *n_inside)
{
    md_key_header(f, 0);
    fprintf(f, "| batch | seq_len | measured | predicted (95%% PI) | error | within the interval |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|---|\n");
    for (int i = 0; i < set->n_groups; i++) {
        enum metric m = set->groups[i].metric;
        if (allocator_level ? m == METRIC_TENSOR || m == METRIC_ALLOCATED : m == METRIC_RSS)
            held_rows(f, &set->groups[i], sum_abs, n, n_inside);
    }
}

static void held_summary(FILE *f, double sum_abs, int n, int n_inside)
{
    if (n)
        fprintf(f, "\nMean absolute error over %d held-out point%s: %.1f%%; %d of %d inside its interval.\n\n", n,
                n == 1 ? "" : "s", sum_abs / n, n_inside, n);
}

/* Which spread between runs RSS's intervals carry, per group with held-out points. */
static void between_runs_note(FILE *f, const struct fit_set *set)
{
    char key[1200], what[300];
    fprintf(f, "RSS's intervals add its spread between runs of one point (the heap's layout differs from run to "
               "run; a fit sees only its own run's): the sd of the difference between two runs, as a share of "
               "the prediction:\n\n");
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (g->metric != METRIC_RSS || !g->n_held)
            continue;
        md_key_label(&g->key, key, sizeof key); /* the model's name is a config's _name_or_path */
        group_run_spread_describe(g, what, sizeof what);
        fprintf(f, "- %s: %s\n", key, what);
    }
    fprintf(f, "\n");
}

void section_holdout(FILE *f, const struct fit_set *set)
{
    double sum_abs = 0;
    int n = 0, n_inside = 0;
    fprintf(f, "## Held-out points\n\nPoints the sweep's `holdout` key measured, and the runs of `peakfit verify` "
               "(DIR/verify-*/), kept out of the fit: "
               "the fit predicts each one, so the report states its own prediction error (rss metric, MiB "
               "above baseline; error = (predicted − measured) / measured) and whether the measurement fell "
               "inside its 95%% prediction interval (for a new measurement, not the interval of the mean).\n\n");
    held_table(f, set, 0, &sum_abs, &n, &n_inside);
    held_summary(f, sum_abs, n, n_inside);
    if (n) {
        between_runs_note(f, set);
    } else {
        fprintf(f, "\nNone: the sweep has no `holdout` key (e.g. `holdout = 6x384, 3x128`), so the fit's "
                   "prediction error is only estimated by leave-one-out.\n\n");
        return;
    }
    sum_abs = 0, n = 0, n_inside = 0;
    fprintf(f, "## Held-out points, allocator level\n\nThe same points against the fit of the allocator's own "
               "peak (`tensor` on the CPU, `allocated` on a GPU): exact counts, so the interval is narrow.\n\n");
    held_table(f, set, 1, &sum_abs, &n, &n_inside);
    held_summary(f, sum_abs, n, n_inside);
}
