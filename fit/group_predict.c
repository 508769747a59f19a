/* group_predict.c: a group fit's prediction at a new point, its 95%
 * prediction interval, the knee, and the held-out points against them. */
#include <math.h>
#include "fit/group_predict.h"
#include "fit/group_spread.h"

/* A new point's leverage on the floor at T tokens: its mean's, and its
 * slope's where it rises. */
double group_floor_leverage(const struct floor_search *f, double tokens)
{
    double d = tokens - f->t_mean;
    return 1.0 / f->k + f->extra_leverage + (f->slope != 0 && f->t_sxx > 0 ? d * d / f->t_sxx : 0);
}

double group_held_error_pct(const struct group_fit *g, int i)
{
    return 100.0 * (g->held_predicted[i] - g->held_y[i]) / g->held_y[i];
}

int group_held_inside(const struct group_fit *g, int i)
{
    return fabs(g->held_predicted[i] - g->held_y[i]) <= g->held_ci95[i]; /* false for a NAN interval */
}

double group_line_leverage(const struct group_fit *g, double b, double s)
{
    if (g->gap_model && g->gap.p == 3)
        return ols_leverage(&g->gap, b * s, b);
    return ols_leverage(group_chosen(g), b * s, b * s * s);
}

double group_line_at(const struct group_fit *g, double b, double s)
{
    return ols_predict(group_chosen(g), b * s, b * s * s) + group_gap_per_sample(g) * b;
}

int group_floor_binds(const struct group_fit *g, double b, double s)
{
    return g->floor.found && floor_at(&g->floor, b * s) >= group_line_at(g, b, s);
}

/* Allocator-level counts (tensor, allocated) are exact to the byte and
 * repeat to the byte, so their residuals can be zero and the interval
 * with them; but the model leaves out what depends on b or s alone
 * (SmolLM2-135M: b1 s1024 and b4 s256, both 1024 tokens, differ by 0.38
 * MiB, 0.011%; b6 s128 and b2 s384 by 0.004%) and the b*s^2 term it drops
 * as immaterial. So their interval is never narrower than this share of
 * the prediction, added in quadrature: five times the largest such
 * difference measured. RSS is noisy: its residuals give its width, and
 * its spread between runs (fit/group_spread.c) is added in quadrature. */
#define EXACT_RESOLUTION 0.0005

static int metric_is_exact(enum metric m) { return m == METRIC_TENSOR || m == METRIC_ALLOCATED; }

double group_predict(const struct group_fit *g, double b, double s, double *pi95)
{
    int on_floor = group_floor_binds(g, b, s);
    double spread = on_floor ? group_floor_leverage(&g->floor, b * s) : group_line_leverage(g, b, s);
    double y = on_floor ? floor_at(&g->floor, b * s) : group_line_at(g, b, s);
    if (g->has_lower) {
        double low = ols_predict(&g->lower, b * s, b * s * s);
        low = g->lower_floor.found ? fmax(low, floor_at(&g->lower_floor, b * s)) : low;
        double t = b * s, share = g->lower_tokens > t ? t / g->lower_tokens : 1;
        y = fmax(y, low + g->lower_gap * share);
    }
    if (pi95) {
        double stat = group_interval_half(g, g->sigma * g->sigma * (1 + spread), y);
        double res = metric_is_exact(g->metric) ? EXACT_RESOLUTION * y : 0;
        *pi95 = sqrt(stat * stat + res * res);
    }
    return y;
}

double group_knee_tokens(const struct group_fit *g, double s)
{
    const struct ols *c = group_chosen(g);
    if (!g->floor.found || !c)
        return NAN;
    double per_token = c->c[1] + (c->p == 3 ? c->c[2] * s : 0) + group_gap_per_sample(g) / s - g->floor.slope;
    double at_zero = g->floor.p_mib - g->floor.slope * g->floor.t_mean;
    return per_token > 0 ? (at_zero - c->c[0]) / per_token : NAN;
}

int group_is_per_sample(const struct group_fit *g) { return g->n_seq == 1 && g->seq_lens[0] == 1; }

double group_per_sample(const struct group_fit *g, double s)
{
    return group_chosen(g)->c[1] * s + (group_chosen(g)->p == 3 ? group_chosen(g)->c[2] * s * s : 0) +
           group_gap_per_sample(g);
}

