/* group_fit.c: the floor, both models above it, the choice between them,
 * prediction intervals, leave-one-out prediction error (closed form), and
 * F against the measured fixed costs. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/group_fit.h"
#include "fit/phases.h"

const struct ols *group_chosen(const struct group_fit *g)
{
    return g->choice == CHOICE_LINEAR ? &g->linear : g->choice == CHOICE_QUADRATIC ? &g->quadratic : NULL;
}

const char *metric_name(enum metric m)
{
    static const char *const names[METRIC_COUNT] = {"rss", "tensor", "allocated", "reserved"};
    return m >= 0 && m < METRIC_COUNT ? names[m] : "?";
}

static double metric_value(const struct observation *o, enum metric m)
{
    switch (m) {
    case METRIC_RSS: return o->rss_mib;
    case METRIC_TENSOR: return o->tensor_mib;
    case METRIC_ALLOCATED: return o->gpu_allocated_mib;
    case METRIC_RESERVED: return o->gpu_reserved_mib;
    default: return -1;
    }
}

/* What the metric's peak comes on top of: the process's RSS baseline, or
 * on the device, the context and libraries outside the allocator. */
static double metric_baseline(const struct observation *o, enum metric m)
{
    if (m == METRIC_ALLOCATED || m == METRIC_RESERVED)
        return o->gpu_context_mib > 0 ? o->gpu_context_mib : 0;
    return o->baseline_mib;
}

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
        g->n_held++;
    }
    return 0;
}

double group_held_error_pct(const struct group_fit *g, int i)
{
    return 100.0 * (g->held_predicted[i] - g->held_y[i]) / g->held_y[i];
}

int group_held_inside(const struct group_fit *g, int i)
{
    return fabs(g->held_predicted[i] - g->held_y[i]) <= g->held_ci95[i]; /* false for a NAN interval */
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
        g->has_phases &= phases_known(&o->ok[i]);
        g->max_tokens = fmax(g->max_tokens, o->ok[i].tokens);
        g->y[g->n++] = metric_value(&o->ok[i], g->metric);
    }
    return 0;
}

static double bs2(const struct observation *p) { return (double)p->batch * p->seq_len * p->seq_len; }

/* The prediction from a line fit f at point p: the larger of P and the line. */
static double point_predict(const struct group_fit *g, const struct ols *f, const struct observation *p)
{
    double line = ols_predict(f, p->tokens, bs2(p));
    return g->floor.found ? fmax(line, floor_at(&g->floor, p->tokens)) : line;
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

/* x1 = T, x2 = b*s^2 for the points, all of them (all) or those above
 * the knee; returns how many. */
static int design(const struct group_fit *g, int all, double *x1, double *x2, double *y)
{
    int n = 0;
    for (int i = 0; i < g->n; i++) {
        if (!all && g->on_floor[i])
            continue;
        x1[n] = g->points[i]->tokens;
        x2[n] = bs2(g->points[i]);
        y[n++] = g->y[i];
    }
    return n;
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
        if (bs2(g->points[i]) > bs2(top))
            top = g->points[i];
    double peak = ols_predict(&g->quadratic, top->tokens, bs2(top));
    return peak > 0 ? fabs(g->quadratic.c[2] * bs2(top)) / peak : 0;
}

static void choose(struct group_fit *g)
{
    const struct ols *lin = &g->linear, *quad = &g->quadratic;
    g->f_stat = g->f_p = NAN;
    if (!lin->identifiable) {
        g->choice = CHOICE_NONE;
        snprintf(g->reason, sizeof g->reason, "fewer than two distinct token counts: nothing can be fitted");
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
    int dof = g->n_above - 3;
    g->f_stat = quad->rss > 0 ? (lin->rss - quad->rss) / (quad->rss / dof) : INFINITY;
    g->f_p = isinf(g->f_stat) ? 0 : gsl_cdf_fdist_Q(fmax(g->f_stat, 0), 1, dof);
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

/* A new point's leverage on the floor at T tokens: its mean's, and its
 * slope's where it rises. */
static double floor_leverage(const struct floor_search *f, double tokens)
{
    double d = tokens - f->t_mean;
    return 1.0 / f->k + (f->slope != 0 && f->t_sxx > 0 ? d * d / f->t_sxx : 0);
}

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
    double line = ols_predict(c, p->tokens, bs2(p));
    if (g->on_floor[i]) {
        int k = g->floor.k;
        double f = floor_at(&g->floor, p->tokens), h = floor_leverage(&g->floor, p->tokens);
        if (k > 1 && h < 1 - 1e-9)
            return fmax(line, f - (g->y[i] - f) * h / (1 - h));
        return k > 1 ? fmax(line, (k * g->floor.p_mib - g->y[i]) / (k - 1)) : line;
    }
    double h = ols_leverage(c, p->tokens, bs2(p));
    if (h > 1 - 1e-9)
        return NAN;
    double without = line - (g->y[i] - line) * h / (1 - h);
    return g->floor.found ? fmax(without, floor_at(&g->floor, p->tokens)) : without;
}

static void leave_one_out(struct group_fit *g)
{
    double sq = 0, res = 0;
    g->loo_n = 0;
    g->loo_max_abs = 0;
    for (int i = 0; i < g->n; i++) {
        g->predicted[i] = point_predict(g, group_chosen(g), g->points[i]);
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

/* sigma from the residuals of the whole model (predicted[] is filled). */
static void prediction_spread(struct group_fit *g)
{
    double res = 0;
    for (int i = 0; i < g->n; i++)
        res += (g->y[i] - g->predicted[i]) * (g->y[i] - g->predicted[i]);
    g->dof = g->n - group_chosen(g)->p - g->floor.found - (g->floor.slope != 0);
    g->sigma = g->dof > 0 ? sqrt(res / g->dof) : NAN;
    g->t975 = g->dof > 0 ? gsl_cdf_tdist_Pinv(0.975, g->dof) : NAN;
}

static void fixed_costs(struct group_fit *g)
{
    for (int i = 0; i < g->n; i++) {
        const struct observation *p = g->points[i];
        g->weight_mib = fmax(g->weight_mib, p->weight_mib);
        g->grad_mib = fmax(g->grad_mib, p->grad_mib);
        g->optimizer_mib = fmax(g->optimizer_mib, p->optimizer_mib);
        g->baseline_mib += metric_baseline(p, g->metric) / g->n;
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

static void flag_poor_fit(struct group_fit *g)
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
    if (c->r2 < GROUP_FIT_R2_MIN)
        flag(g, "R^2 %.3f below %g: the fit explains the peaks poorly", c->r2, GROUP_FIT_R2_MIN);
    if (c->c[1] < 0)
        flag(g, "A = %.3g MiB/token is negative: memory cannot shrink with tokens", c->c[1]);
}

/* Are exact's points g's, in the same order? */
static int same_points(const struct group_fit *g, const struct group_fit *exact)
{
    if (!exact || exact->n != g->n || !exact->on_floor)
        return 0;
    for (int i = 0; i < g->n; i++)
        if (exact->points[i] != g->points[i])
            return 0;
    return 1;
}

/* The floor with its points given (marks, n entries): kept in g when it
 * fits better than the line alone. Returns 1 kept, 0 not, -1 out of memory. */
static int floor_from(struct group_fit *g, const unsigned char *marks, int n, const double *x1, const double *x2,
                      const double *y)
{
    memcpy(g->on_floor, marks, (size_t)n);
    if (floor_given(x1, x2, y, n, g->on_floor, &g->floor) != 0)
        return -1;
    if (!g->floor.found)
        memset(g->on_floor, 0, (size_t)n);
    return g->floor.found;
}

/* The points the per-phase peaks put on the floor (fit/phases.h); 0 when
 * some point has no phases or none or all are on it. */
static int phase_marks(const struct group_fit *g, unsigned char *marks)
{
    int k = 0;
    for (int i = 0; g->has_phases && i < g->n; i++)
        k += marks[i] = (unsigned char)phases_on_floor(g->points[i]);
    return k > 0 && k < g->n;
}

/* The floor: exact's points where given and better than the line alone;
 * then the points the per-phase peaks put on it (the evidence a small
 * sweep has: the search below needs five points and more); else searched
 * with the quadratic where seq_len varies (else the b*s^2 term is a
 * multiple of T), then with the line if that found none. */
static int find_floor(struct group_fit *g, const struct group_fit *exact, double *x1, double *x2, double *y)
{
    int n = design(g, 1, x1, x2, y), rc = 0;
    unsigned char *marks = malloc((size_t)n + 1);
    if (!marks)
        return -1;
    if (same_points(g, exact) && exact->floor.found)
        rc = floor_from(g, exact->on_floor, n, x1, g->n_seq >= 2 && exact->choice == CHOICE_QUADRATIC ? x2 : NULL, y);
    if (rc == 0 && phase_marks(g, marks))
        rc = floor_from(g, marks, n, x1, NULL, y);
    free(marks);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (g->n_seq >= 2) {
        if (floor_find(x1, x2, y, n, &g->floor, g->on_floor) != 0)
            return -1;
        if (g->floor.found)
            return 0;
    }
    return floor_find(x1, NULL, y, n, &g->floor, g->on_floor);
}

/* The allocator-level fit under this one (RSS over tensor, reserved over
 * allocated), and the smallest ratio of this metric to it among the points
 * above the knee: RSS holds every live tensor byte and a heap overhead
 * that, above the knee, has been no smaller a share of them. */
static void lower_bound(struct group_fit *g, const struct group_fit *exact)
{
    g->has_lower = 1;
    g->lower = *group_chosen(exact);
    g->lower_floor = exact->floor;
    g->lower_ratio = 1;
    int first = 1;
    for (int i = 0; i < g->n; i++) {
        if (g->on_floor[i] || !(exact->y[i] > 0))
            continue;
        double r = g->y[i] / exact->y[i];
        g->lower_ratio = first ? r : fmin(g->lower_ratio, r);
        first = 0;
    }
    g->lower_ratio = fmax(g->lower_ratio, 1);
}

enum metric metric_exact_for(enum metric m)
{
    return m == METRIC_RSS ? METRIC_TENSOR : m == METRIC_RESERVED ? METRIC_ALLOCATED : METRIC_COUNT;
}

int group_fit_run(const struct observations *o, const struct group_key *key, enum metric metric,
                  struct group_fit *g)
{
    return group_fit_run_hinted(o, key, metric, NULL, g);
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
    distinct_seq_lens(g);
    double *x1 = malloc((size_t)g->n * sizeof *x1), *x2 = malloc((size_t)g->n * sizeof *x2),
           *y = malloc((size_t)g->n * sizeof *y);
    if (!x1 || !x2 || !y || find_floor(g, exact, x1, x2, y) != 0) {
        free(x1), free(x2), free(y);
        return -2;
    }
    if (same_points(g, exact) && group_chosen(exact))
        lower_bound(g, exact);
    g->n_above = design(g, 0, x1, x2, y);
    ols_fit(x1, NULL, y, g->n_above, &g->linear);
    ols_fit(x1, x2, y, g->n_above, &g->quadratic);
    g->aic_linear = aic(&g->linear);
    g->aic_quadratic = aic(&g->quadratic);
    choose(g);
    if (group_chosen(g)) {
        leave_one_out(g);
        prediction_spread(g);
    }
    fixed_costs(g);
    flag_poor_fit(g);
    free(x1), free(x2), free(y);
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

static double line_at(const struct group_fit *g, double b, double s)
{
    return ols_predict(group_chosen(g), b * s, b * s * s);
}

int group_floor_binds(const struct group_fit *g, double b, double s)
{
    return g->floor.found && floor_at(&g->floor, b * s) >= line_at(g, b, s);
}

/* Allocator-level counts (tensor, allocated) are exact to the byte and
 * repeat to the byte, so their residuals can be zero and the interval
 * with them; but the model leaves out what depends on b or s alone
 * (SmolLM2-135M: b1 s1024 and b4 s256, both 1024 tokens, differ by 0.38
 * MiB, 0.011%; b6 s128 and b2 s384 by 0.004%) and the b*s^2 term it drops
 * as immaterial. So their interval is never narrower than this share of
 * the prediction, added in quadrature: five times the largest such
 * difference measured. RSS is noisy: its residuals give its width. */
#define EXACT_RESOLUTION 0.0005

static int metric_is_exact(enum metric m) { return m == METRIC_TENSOR || m == METRIC_ALLOCATED; }

double group_predict(const struct group_fit *g, double b, double s, double *pi95)
{
    int on_floor = group_floor_binds(g, b, s);
    double spread = on_floor ? floor_leverage(&g->floor, b * s) : ols_leverage(group_chosen(g), b * s, b * s * s);
    double y = on_floor ? floor_at(&g->floor, b * s) : line_at(g, b, s);
    if (g->has_lower) {
        double low = ols_predict(&g->lower, b * s, b * s * s);
        low = g->lower_floor.found ? fmax(low, floor_at(&g->lower_floor, b * s)) : low;
        y = fmax(y, on_floor ? low : g->lower_ratio * low);
    }
    if (pi95) {
        double stat = g->t975 * g->sigma * sqrt(1 + spread), res = metric_is_exact(g->metric) ? EXACT_RESOLUTION * y : 0;
        *pi95 = sqrt(stat * stat + res * res);
    }
    return y;
}

double group_knee_tokens(const struct group_fit *g, double s)
{
    const struct ols *c = group_chosen(g);
    if (!g->floor.found || !c)
        return NAN;
    double per_token = c->c[1] + (c->p == 3 ? c->c[2] * s : 0) - g->floor.slope;
    double at_zero = g->floor.p_mib - g->floor.slope * g->floor.t_mean;
    return per_token > 0 ? (at_zero - c->c[0]) / per_token : NAN;
}

double group_per_sample(const struct group_fit *g, double s)
{
    return group_chosen(g)->c[1] * s + (group_chosen(g)->p == 3 ? group_chosen(g)->c[2] * s * s : 0);
}
