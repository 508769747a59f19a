/* report_peers.c: report.md's groups that are the same points measured
 * two ways: the built-in worker's group beside each command job's group
 * whose key differs only in measured_by (settings/group_key.h), with the fitted
 * A of each and, point by point, both peaks and their ratio. */
#include <stdio.h>
#include <string.h>
#include "reports/calibration.h"
#include "reports/markdown.h"
#include "reports/report_sections.h"

/* The index of c's point at w's point i (same batch and seq_len), or -1. */
static int same_point(const struct group_fit *w, int i, const struct group_fit *c)
{
    for (int j = 0; j < c->n; j++)
        if (c->points[j]->batch == w->points[i]->batch && c->points[j]->seq_len == w->points[i]->seq_len)
            return j;
    return -1;
}

static double slope(const struct group_fit *g)
{
    const struct ols *c = group_chosen(g);
    return c ? c->c[1] : -1;
}

static void peer_summary(FILE *f, const struct group_fit *w, const struct group_fit *c)
{
    char label[1200], a[32], b[32], r[32], by[400];
    double aw = slope(w), ac = slope(c);
    snprintf(r, sizeof r, "—");
    if (aw > 0 && ac >= 0)
        snprintf(r, sizeof r, "%.4f", ac / aw);
    fprintf(f, "**%s**, %s metric: A %s MiB/token by the worker, %s by %s: ratio %s.\n\n",
            md_key_label(&w->key, label, sizeof label), metric_name(w->metric), md_number(aw, "%.5g", a, sizeof a),
            md_number(ac, "%.5g", b, sizeof b), md_cell(c->key.measured_by, by, sizeof by), r);
}

static void peer_points(FILE *f, const struct group_fit *w, const struct group_fit *c)
{
    fprintf(f, "| batch | seq_len | worker (MiB) | command (MiB) | ratio command / worker |\n"
               "|---|---|---|---|---|\n");
    for (int i = 0; i < w->n; i++) {
        int j = same_point(w, i, c);
        if (j < 0)
            continue;
        fprintf(f, "| %d | %d | %.3f | %.3f | ", w->points[i]->batch, w->points[i]->seq_len, w->y[i], c->y[j]);
        if (w->y[i] > 0)
            fprintf(f, "%.4f |\n", c->y[j] / w->y[i]);
        else
            fprintf(f, "— |\n");
    }
    fprintf(f, "\n");
}

void section_peers(FILE *f, const struct fit_set *set)
{
    int shown = 0;
    for (int i = 0; i < set->n_groups; i++)
        for (int k = 0; k < set->n_groups; k++) {
            const struct group_fit *w = &set->groups[i], *c = &set->groups[k];
            if (!group_peer_of(w, c))
                continue;
            if (!shown++)
                fprintf(f, "## The same points, measured two ways\n\nThe built-in worker's group beside a "
                           "command job's (`measured_by` in peaks.csv: `command` and the hash of the job's "
                           "command): the same model, device, technique, attention and settings. A is each fit's "
                           "slope per token; then each point's peak above the baseline, with the ratio command / "
                           "worker. On the rss metric the command's peak is its whole process tree's.\n\n");
            peer_summary(f, w, c);
            peer_points(f, w, c);
        }
}
