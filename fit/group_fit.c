/* group_fit.c: one group's fit: its points, both models above the floor
 * and the choice between them, then the checks and the held-out points.
 * The struct and its metrics are group.c's; which points lie on the floor
 * group_floor_points.c; leave-one-out, spread and flags group_checks.c;
 * predictions group_predict.c. */
#include <gsl/gsl_cdf.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/group_fit.h"
#include "fit/phases.h"

/* In the group and the fit (held): in the group and held out. */
static int in_group_as(const struct group_fit *g, const struct observation *p, int held)
{
    struct group_key key;
    group_key_of(p, &key);
    return group_key_compare(&key, &g->key) == 0 && metric_value(p, g->metric) >= 0 && p->holdout == held;
}

static int in_group(const struct group_fit *g, const struct observation *p) { return in_group_as(g, p, 0); }

/* The held-out points, predicted by the fit. Returns 0, or -2 out of memory. */
static int hold_out(const struct observations *o, struct group_fit *g)
{
    int n = 0;
    for (int i = 0; i < o->n_ok; i++)
        n += in_group_as(g, &o->ok[i], 1);
    if (n == 0 || !group_chosen(g))
        return 0;
    g->held = malloc((size_t)n * sizeof *g->held);
    g->held_y = malloc((size_t)n * sizeof *g->held_y);
    g->held_predicted = malloc((size_t)n * sizeof *g->held_predicted);
    g->held_ci95 = malloc((size_t)n * sizeof *g->held_ci95);
    if (!g->held || !g->held_y || !g->held_predicted || !g->held_ci95)
        return -2;
    for (int i = 0; i < o->n_ok; i++) {
        const struct observation *p = &o->ok[i];
        if (!in_group_as(g, p, 1))
            continue;
        g->held[g->n_held] = p;
        g->held_y[g->n_held] = metric_value(p, g->metric);
        g->held_predicted[g->n_held] = group_predict(g, p->batch, p->seq_len, &g->held_ci95[g->n_held]);
        if (p->cpu_model[0] && g->hw.cpu_model[0] && strcmp(p->cpu_model, g->hw.cpu_model) != 0)
            g->held_ci95[g->n_held] = group_other_machine_pi95(g, g->held_predicted[g->n_held], g->held_ci95[g->n_held]);
        g->n_held++;
    }
    return 0;
}

/* Two passes: count, then fill arrays of exactly that size. */
static int collect(const struct observations *o, struct group_fit *g)
{
    int n = 0;
    for (int i = 0; i < o->n_ok; i++)
        n += in_group(g, &o->ok[i]);
    if (n == 0)
        return -1;
    g->points = malloc((size_t)n * sizeof *g->points);
    g->y = malloc((size_t)n * sizeof *g->y);
    g->seq_lens = malloc((size_t)n * sizeof *g->seq_lens);
    g->predicted = calloc((size_t)n, sizeof *g->predicted);
    g->loo_error = calloc((size_t)n, sizeof *g->loo_error);
    g->on_floor = calloc((size_t)n, 1);
    if (!g->points || !g->y || !g->seq_lens || !g->predicted || !g->loo_error || !g->on_floor)
        return -2;
    g->has_phases = 1;
    for (int i = 0; i < o->n_ok; i++) {
        if (!in_group(g, &o->ok[i]))
            continue;
        g->points[g->n] = &o->ok[i];
        g->has_phases &= phases_known(metric_phases(&o->ok[i], g->metric));
        g->max_tokens = fmax(g->max_tokens, o->ok[i].tokens);
        g->y[g->n++] = metric_value(&o->ok[i], g->metric);
    }
    return 0;
}

/* seq_lens has room for n entries, the most there can be. */
static void distinct_seq_lens(struct group_fit *g)
{
    g->min_batch = g->n ? g->points[0]->batch : 0;
    for (int i = 0; i < g->n; i++) {
        const struct observation *p = g->points[i];
        g->min_batch = p->batch < g->min_batch ? p->batch : g->min_batch;
        g->max_batch = p->batch > g->max_batch ? p->batch : g->max_batch;
        int j = 0;
        while (j < g->n_seq && g->seq_lens[j] < p->seq_len)
            j++;
        if (j < g->n_seq && g->seq_lens[j] == p->seq_len)
            continue;
        memmove(&g->seq_lens[j + 1], &g->seq_lens[j], (size_t)(g->n_seq - j) * sizeof(int));
        g->seq_lens[j] = p->seq_len;
        g->n_seq++;
    }
}

/* Distinct seq_lens among the points above the knee: B needs two. */
static int seq_lens_above(const struct group_fit *g)
{
    int n = 0;
    for (int j = 0; j < g->n_seq; j++)
        for (int i = 0; i < g->n; i++)
            if (!g->on_floor[i] && g->points[i]->seq_len == g->seq_lens[j]) {
                n++;
                break;
            }
    return n;
}

static double aic(const struct ols *f)
{
    if (!f->identifiable)
        return NAN;
    double rss = fmax(f->rss, 1e-12); /* an exact fit would be -infinity */
    return f->n * log(rss / f->n) + 2.0 * (f->p + 1);
}

/* A b*s^2 term that is significant but tiny (an s-only cost such as the
 * rotary tables bends the exact allocator counts by a fraction of a MiB) is
 * not worth the extrapolation risk of a quadratic: it is kept only when it
 * is at least this share of the peak at the point with the largest b*s^2. */
#define MATERIAL_SHARE 0.01

static double quadratic_share(const struct group_fit *g)
{
    const struct observation *top = g->points[0];
    for (int i = 1; i < g->n; i++)
        if (group_bs2(g->points[i]) > group_bs2(top))
            top = g->points[i];
    double peak = ols_predict(&g->quadratic, top->tokens, group_bs2(top));
    return peak > 0 ? fabs(g->quadratic.c[2] * group_bs2(top)) / peak : 0;
}

/* The F-test of the b*s^2 term on the points above the knee (total_ss:
 * their total sum of squares). The quadratic contains the line, so its
 * residuals are never larger; a gain below 1e-10 of total_ss is rounding
 * (floor.c's test alike; 16,000 points on a line gave F = -7.8, and exact
 * ones F = 6.7e4 from residuals of 1e-16): no evidence, F = 0, p = 1. */
static void f_test_b_s2(struct group_fit *g, double total_ss)
{
    const struct ols *lin = &g->linear, *quad = &g->quadratic;
    int dof = g->n_above - 3;
    double gain = lin->rss - quad->rss, tiny = 1e-10 * total_ss;
    g->f_stat = gain <= tiny ? 0 : quad->rss > tiny ? gain / (quad->rss / dof) : INFINITY;
    g->f_p = isinf(g->f_stat) ? 0 : gsl_cdf_fdist_Q(g->f_stat, 1, dof);
}

static void choose(struct group_fit *g, double total_ss)
{
    const struct ols *lin = &g->linear, *quad = &g->quadratic;
    g->f_stat = g->f_p = NAN;
    if (!lin->identifiable) {
        g->choice = CHOICE_NONE;
        if (g->floor.found)
            snprintf(g->reason, sizeof g->reason, "%d of %d points above the knee, with fewer than two distinct token "
                     "counts among them: no line can be fitted", g->n_above, g->n);
        else
            snprintf(g->reason, sizeof g->reason, "fewer than two distinct token counts: no line can be fitted");
        return;
    }
    g->choice = CHOICE_LINEAR;
    if (g->n_seq < 2) {
        snprintf(g->reason, sizeof g->reason, "seq_len does not vary (only s=%d): the b*s^2 term cannot be "
                 "identified, so B is not estimated; linear", g->seq_lens[0]);
        return;
    }
    if (seq_lens_above(g) < 2) {
        snprintf(g->reason, sizeof g->reason, "above the knee seq_len does not vary: B is not estimated; linear");
        return;
    }
    if (!quad->identifiable || g->n_above <= 3) {
        snprintf(g->reason, sizeof g->reason, "too few points above the knee (%d) to test a b*s^2 term; linear",
                 g->n_above);
        return;
    }
    f_test_b_s2(g, total_ss);
    double share = quadratic_share(g);
    if (g->f_p < 0.05 && share >= MATERIAL_SHARE) {
        g->choice = CHOICE_QUADRATIC;
        snprintf(g->reason, sizeof g->reason, "F-test for the b*s^2 term: F=%.3g, p=%.3g < 0.05, and it is "
                 "%.1f%% of the largest point's peak; quadratic", g->f_stat, g->f_p, 100 * share);
    } else if (g->f_p < 0.05) {
        snprintf(g->reason, sizeof g->reason, "F-test for the b*s^2 term: F=%.3g, p=%.3g < 0.05, but it is "
                 "only %.2f%% of the largest point's peak (< %.0f%%); linear", g->f_stat, g->f_p, 100 * share,
                 100 * MATERIAL_SHARE);
    } else {
        snprintf(g->reason, sizeof g->reason, "F-test for the b*s^2 term: F=%.3g, p=%.3g >= 0.05; linear",
                 g->f_stat, g->f_p);
    }
}

int group_fit_run(const struct observations *o, const struct group_key *key, enum metric metric,
                  struct group_fit *g)
{
    return group_fit_run_hinted(o, key, metric, NULL, g);
}

/* The floor (exact's points where they fit better, else searched) and
 * both lines through the points above it, chosen between. Returns 0, or
 * -1 out of memory. */
static int fit_alone(struct group_fit *g, const struct group_fit *exact)
{
    double *x1 = malloc((size_t)g->n * sizeof *x1), *x2 = malloc((size_t)g->n * sizeof *x2),
           *y = malloc((size_t)g->n * sizeof *y);
    if (!x1 || !x2 || !y || group_find_floor(g, exact, x1, x2, y) != 0) {
        free(x1), free(x2), free(y);
        return -1;
    }
    g->n_above = group_design(g, 0, x1, x2, y);
    ols_fit(x1, NULL, y, g->n_above, &g->linear);
    ols_fit(x1, x2, y, g->n_above, &g->quadratic);
    g->aic_linear = aic(&g->linear);
    g->aic_quadratic = aic(&g->quadratic);
    choose(g, ols_total_sum_of_squares(y, g->n_above, NULL));
    free(x1), free(x2), free(y);
    return 0;
}

int group_fit_run_hinted(const struct observations *o, const struct group_key *key, enum metric metric,
                         const struct group_fit *exact, struct group_fit *g)
{
    memset(g, 0, sizeof *g);
    g->key = *key;
    g->metric = metric;
    int rc = collect(o, g);
    if (rc != 0)
        return rc;
    hardware_of(g->points[0], &g->hw);
    distinct_seq_lens(g);
    if (group_same_points(g, exact) && group_chosen(exact)) {
        if (group_gap_fit(g, exact) != 0)
            return -2;
    } else if (fit_alone(g, exact) != 0) {
        return -2;
    }
    if (group_chosen(g)) {
        group_leave_one_out(g);
        group_prediction_spread(g);
    }
    group_fixed_costs(g);
    group_flag_poor_fit(g);
    return hold_out(o, g);
}

void group_fit_free(struct group_fit *g)
{
    free(g->points);
    free(g->y);
    free(g->seq_lens);
    free(g->predicted);
    free(g->loo_error);
    free(g->on_floor);
    free(g->held);
    free(g->held_y);
    free(g->held_predicted);
    free(g->held_ci95);
    memset(g, 0, sizeof *g);
}
