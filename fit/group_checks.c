/* group_checks.c: what a group fit says of itself: leave-one-out
 * prediction errors (closed form), the spread of a new measurement, the
 * measured fixed costs and what of F they leave, and the poor-fit flags. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fit/group_fit.h"

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
    char text[256];
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

void group_flag_poor_fit(struct group_fit *g)
{
    const struct ols *c = group_chosen(g);
    if (!c)
        return;
    if (g->n_above < c->p + 2)
        flag(g, "%d points above the knee, fewer than its %d coefficients + 2: too few to check the fit",
             g->n_above, c->p);
    if (g->n_above < GROUP_FIT_ABOVE_MIN)
        flag(g, "only %d point%s above the knee (fewer than %d): A, and any plan built on it, rest on too little",
             g->n_above, g->n_above == 1 ? "" : "s", GROUP_FIT_ABOVE_MIN);
    if (flat(g))
        return;
    if (c->r2 < GROUP_FIT_R2_MIN)
        flag(g, "R^2 %.3f below %g: the fit explains the peaks poorly", c->r2, GROUP_FIT_R2_MIN);
    double half = ols_ci95(c, 1);
    if (c->c[1] < 0 && (isnan(half) || c->c[1] + half < 0))
        flag(g, "A = %.3g MiB/token is negative: memory cannot shrink with tokens", c->c[1]);
}

