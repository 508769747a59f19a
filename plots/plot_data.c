/* plot_data.c: whitespace-separated columns, one file per series. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "plots/plot_data.h"

int plot_groups(const struct fit_set *set, const struct group_fit **out, int max)
{
    int n = 0;
    for (int i = 0; i < set->n_groups && n < max; i++)
        if (set->groups[i].metric == METRIC_RSS)
            out[n++] = &set->groups[i];
    return n;
}

static FILE *open_data(const char *dir, const char *name, int index)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s-%d.dat", dir, name, index);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "peakfit: %s: cannot write\n", path);
    return f;
}

static void write_points(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens peak_above_baseline_mib batch seq_len\n");
    for (int i = 0; i < g->n; i++)
        fprintf(f, "%g %g %d %d\n", g->points[i]->tokens, g->y[i], g->points[i]->batch, g->points[i]->seq_len);
}

/* The fitted curve with its 95% band, one block per seq_len (a straight
 * line is the same for every seq_len, so it gets one block). */
static void write_fit(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens predicted_mib ci_low ci_high seq_len\n");
    const struct ols *chosen = group_chosen(g);
    if (!chosen)
        return;
    double max_tokens = 0;
    for (int i = 0; i < g->n; i++)
        max_tokens = fmax(max_tokens, g->points[i]->tokens);
    int blocks = chosen->p == 3 ? g->n_seq : 1;
    for (int k = 0; k < blocks; k++) {
        int s = g->seq_lens[chosen->p == 3 ? k : g->n_seq - 1];
        double b_max = max_tokens / s;
        for (int step = 0; step <= 40; step++) {
            double b = b_max * step / 40, ci;
            double y = group_predict(g, b, s, &ci);
            fprintf(f, "%g %g %g %g %d\n", b * s, y, y - ci, y + ci, s);
        }
        fprintf(f, "\n\n");
    }
}

static void write_residuals(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens residual_mib loo_error_mib\n");
    for (int i = 0; group_chosen(g) && i < g->n; i++)
        fprintf(f, "%g %g %g\n", g->points[i]->tokens, g->y[i] - g->predicted[i],
                isfinite(g->loo_error[i]) ? g->loo_error[i] : NAN);
}

static void write_throughput(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens tokens_per_s\n");
    for (int i = 0; i < g->n; i++)
        if (g->points[i]->step_mean_s > 0)
            fprintf(f, "%g %g\n", g->points[i]->tokens, g->points[i]->tokens / g->points[i]->step_mean_s);
}

/* At the largest measured batch and seq_len: weights, grads, optimizer,
 * activations and the rest of F; negative rest is drawn as 0. */
static void write_breakdown(FILE *f, const struct group_fit *const *groups, int n)
{
    fprintf(f, "# label weights grads optimizer activations overhead\n");
    for (int i = 0; i < n; i++) {
        const struct group_fit *g = groups[i];
        if (!group_chosen(g))
            continue;
        int s = g->seq_lens[g->n_seq - 1];
        fprintf(f, "\"%s\\nb=%d s=%d\" %g %g %g %g %g\n", g->technique, g->max_batch, s, g->weight_mib,
                g->grad_mib, g->optimizer_mib, g->max_batch * group_per_sample(g, s), fmax(g->overhead_mib, 0));
    }
}

int plot_data_write(const char *dir, const struct group_fit *const *groups, int n)
{
    void (*writers[])(FILE *, const struct group_fit *) = {write_points, write_fit, write_residuals,
                                                           write_throughput};
    const char *names[] = {"points", "fit", "residuals", "throughput"};
    for (int i = 0; i < n; i++) {
        for (int w = 0; w < 4; w++) {
            FILE *f = open_data(dir, names[w], i);
            if (!f)
                return -1;
            writers[w](f, groups[i]);
            fclose(f);
        }
    }
    char path[700];
    snprintf(path, sizeof path, "%s/breakdown.dat", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    write_breakdown(f, groups, n);
    return fclose(f);
}
