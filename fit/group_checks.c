/* group_checks.c: what a group fit says of itself: leave-one-out
 * prediction errors (closed form), the spread of a new measurement, the
 * measured fixed costs and what of F they leave, and the poor-fit flags. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fit/group_checks.h"
#include "fit/group_gap.h"
#include "fit/group_predict.h"
#include "fit/group_spread.h"

/* The prediction at point i without it, in closed form: a point above
 * the knee by its leverage (e / (1 - h) is its residual against the line
 * fitted without it); a point on the floor by its leverage on the floor
 * likewise (a flat floor: the mean without it), the flat mean of the
 * others where it alone pinned the floor's slope, and the line alone where
 * it was the floor's only point. The knee itself is not searched again.
 * NAN where the point alone pinned a coefficient of the line. */
static double loo_predict(const struct group_fit *g, int i)
{
    const struct observation *p = g->points[i];
    const struct ols *c = group_chosen(g);
    double line = ols_predict(c, p->tokens, group_bs2(p)) + group_gap_per_sample(g) * p->batch;
    if (g->on_floor[i]) {
        int k = g->floor.k;
        double f = floor_at(&g->floor, p->tokens), h = group_floor_leverage(&g->floor, p->tokens);
        if (k > 1 && h < 1 - 1e-9)
            return fmax(line, f - (g->y[i] - f) * h / (1 - h));
        return k > 1 ? fmax(line, (k * g->floor.p_mib - g->y[i]) / (k - 1)) : line;
    }
    double h = group_line_leverage(g, p->batch, p->seq_len);
    if (h > 1 - 1e-9)
        return NAN;
    double without = line - (g->y[i] - line) * h / (1 - h);
    return g->floor.found ? fmax(without, floor_at(&g->floor, p->tokens)) : without;
}

void group_leave_one_out(struct group_fit *g)
{
    double sq = 0, res = 0;
    g->loo_n = 0;
    g->loo_max_abs = 0;
    for (int i = 0; i < g->n; i++) {
        g->predicted[i] = group_point_predict(g, group_chosen(g), g->points[i]);
        res += (g->y[i] - g->predicted[i]) * (g->y[i] - g->predicted[i]);
        g->loo_error[i] = g->y[i] - loo_predict(g, i);
        if (!isfinite(g->loo_error[i]))
            continue;
        sq += g->loo_error[i] * g->loo_error[i];
        g->loo_max_abs = fmax(g->loo_max_abs, fabs(g->loo_error[i]));
        g->loo_n++;
    }
    g->rmse = sqrt(res / g->n);
    g->loo_rmse = g->loo_n ? sqrt(sq / g->loo_n) : NAN;
}

/* sigma from the residuals of the whole model (predicted[] is filled),
 * and RSS's spread between runs. */
void group_prediction_spread(struct group_fit *g)
{
    double res = 0;
    for (int i = 0; i < g->n; i++)
        res += (g->y[i] - g->predicted[i]) * (g->y[i] - g->predicted[i]);
    g->dof = g->n - group_coefficients(g) - g->floor.found - (g->floor.slope != 0 && !g->floor.proportional);
    g->sigma = g->dof > 0 ? sqrt(res / g->dof) : NAN;
    g->t975 = g->dof > 0 ? gsl_cdf_tdist_Pinv(0.975, g->dof) : NAN;
    group_run_spread(g);
}

void group_fixed_costs(struct group_fit *g)
{
    for (int i = 0; i < g->n; i++) {
        const struct observation *p = g->points[i];
        g->weight_mib = fmax(g->weight_mib, p->weight_mib);
        g->grad_mib = fmax(g->grad_mib, p->grad_mib);
        g->optimizer_mib = fmax(g->optimizer_mib, p->optimizer_mib);
        g->baseline_mib += group_metric_baseline(p, g->metric) / g->n;
    }
    g->overhead_mib = group_chosen(g) ? group_chosen(g)->c[0] - g->weight_mib - g->grad_mib - g->optimizer_mib : NAN;
}

/* Appends one warning to g->flags. */
static void flag(struct group_fit *g, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t used = strlen(g->flags);
    snprintf(g->flags + used, sizeof g->flags - used, "%s%s", used ? "; " : "", text);
}

/* A peak that stays put whatever the tokens (host memory on a GPU run:
 * the weights' CPU copy at every batch): R^2 has nothing to explain, and
 * an A of -7e-18 is rounding. Flat: every point within GROUP_FIT_FLAT of
 * their mean, or 1 MiB. */
static int flat(const struct group_fit *g)
{
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (int i = 0; i < g->n; i++) {
        lo = fmin(lo, g->y[i]);
        hi = fmax(hi, g->y[i]);
        sum += g->y[i];
    }
    return g->n > 0 && hi - lo <= fmax(1.0, GROUP_FIT_FLAT * fabs(sum / g->n));
}

/* The tokens a new point must pass to lie above the knee: the knee at
 * seq_len s where the line meets the floor, and past every point on it. */
static double above_knee_from(const struct group_fit *g, int s)
{
    double from = g->floor.found ? group_knee_tokens(g, s) : 0;
    if (!isfinite(from))
        from = 0;
    for (int i = 0; i < g->n; i++)
        if (g->on_floor[i] && g->points[i]->tokens > from)
            from = g->points[i]->tokens;
    return from;
}

static int measured_at(const struct group_fit *g, int b, int s)
{
    for (int i = 0; i < g->n; i++)
        if (g->points[i]->batch == b && g->points[i]->seq_len == s)
            return 1;
    return 0;
}

/* "batch 12, 16 at seq_len 128": need batches of the series 1, 2, 3, 4,
 * 6, 8, 12, ... (each step x1.5 or x1.33) at the largest seq_len measured
 * that lie above the knee and were not measured yet. */
static void batches_to_add(const struct group_fit *g, int need, char *out, size_t size)
{
    int s = g->n_seq ? g->seq_lens[g->n_seq - 1] : 0;
    double from = above_knee_from(g, s);
    size_t used = (size_t)snprintf(out, size, "batch");
    for (int b = 1, found = 0; s > 0 && found < need && b < 1 << 20; b = b < 4 ? b + 1 : b % 3 ? b / 2 * 3 : b / 3 * 4) {
        if ((double)b * s <= from || measured_at(g, b, s))
            continue;
        used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s %d", found ? "," : "", b);
        found++;
    }
    snprintf(out + used, used < size ? size - used : 0, " at seq_len %d", s);
}

/* "N points above the knee (K on the floor)". */
static const char *above_count(const struct group_fit *g, char *out, size_t size)
{
    snprintf(out, size, "%d point%s above the knee (%d on the floor)", g->n_above, g->n_above == 1 ? "" : "s",
             g->n - g->n_above);
    return out;
}

void group_flag_poor_fit(struct group_fit *g)
{
    const struct ols *c = group_chosen(g);
    char count[96], add[160];
    if (!c) {
        batches_to_add(g, g->n_above < GROUP_FIT_ABOVE_MIN - 1 ? GROUP_FIT_ABOVE_MIN - g->n_above : 1, add, sizeof add);
        flag(g, "%s: a line needs two distinct token counts above the knee; add %s", above_count(g, count, sizeof count),
             add);
        return;
    }
    if (g->n_above < c->p + 2) {
        batches_to_add(g, c->p + 2 - g->n_above, add, sizeof add);
        flag(g, "%s, fewer than its %d coefficients + 2: too few to check the fit%s; add %s",
             above_count(g, count, sizeof count), c->p,
             g->n_above < GROUP_FIT_ABOVE_MIN ? ", and A, and any plan built on it, rest on too little" : "", add);
    }
    if (flat(g))
        return;
    if (c->r2 < GROUP_FIT_R2_MIN)
        flag(g, "R^2 %.3f below %g: the fit explains the peaks poorly", c->r2, GROUP_FIT_R2_MIN);
    double half = ols_ci95(c, 1);
    if (c->c[1] < 0 && (isnan(half) || c->c[1] + half < 0))
        flag(g, "A = %.3g MiB/token is negative: memory cannot shrink with tokens", c->c[1]);
}
