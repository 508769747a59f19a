/* auto_choose.c: the next point of the automated sweep. */
#include <math.h>
#include <stdio.h>
#include "autosweep/auto_choose.h"
#include "sweeps/limits.h"

int auto_coarse_missing(const struct auto_fit *f, const struct auto_goal *g, int *out)
{
    static const int coarse[AUTO_N_COARSE] = AUTO_COARSE;
    int n = 0;
    for (int i = 0; i < (g->budget_mib > 0 ? 1 : AUTO_N_COARSE); i++)
        if (!auto_fit_measured(f, coarse[i]))
            out[n++] = coarse[i];
    return n;
}

/* RSS above baseline at batch b by arithmetic, scaled as b = 1's was, +5%;
 * never below the floor measured. NAN without the arithmetic. */
static double arithmetic_rss(const struct auto_fit *f, const struct auto_goal *g, int b)
{
    double ratio = f->rss_per_tensor > 0 ? f->rss_per_tensor : 1.2;
    if (g->arith_per_token_mib <= 0)
        return NAN;
    return fmax(f->floor_rss_mib, (g->arith_fixed_mib + g->arith_per_token_mib * b * g->seq_len) * ratio * 1.05);
}

/* Does b's upper predicted peak (above baseline) fit in room? Before a
 * line exists (every point on the floor) by arithmetic, and without that
 * only doubling is allowed: the runner's free-memory check refuses a point
 * that would not fit. */
static int fits_room(const struct auto_fit *f, int b, const struct auto_goal *g, double room)
{
    double upper;
    double est = auto_fit_rss(f, b, g->seq_len, &upper);
    if (isnan(est))
        est = upper = arithmetic_rss(f, g, b);
    if (isnan(est))
        return b <= 2 * f->max_ok_batch;
    return upper <= room;
}

/* The batch no point may reach: the smallest that failed, or past the limit. */
static int ceiling_of(const struct auto_fit *f)
{
    return f->min_failed_batch ? f->min_failed_batch : LIMIT_BATCH_MAX + 1;
}

/* The largest batch above every measured one (at most doubling) that fits. */
static int larger_batch(const struct auto_fit *f, const struct auto_goal *g, double room)
{
    int b = 2 * f->max_ok_batch;
    if (b >= ceiling_of(f))
        b = ceiling_of(f) - 1;
    while (b > f->max_ok_batch && !fits_room(f, b, g, room))
        b--;
    return b > f->max_ok_batch ? b : 0;
}

/* The middle of the widest gap between neighbouring ok batches above the
 * knee (the last floor point counts as the gap's lower end). */
static int gap_batch(const struct auto_fit *f)
{
    int best = 0, widest = 1, prev = 0;
    for (int i = 0; i < f->n; i++) {
        const struct auto_point *p = &f->pts[i];
        if (!p->ok)
            continue;
        if (p->tokens > f->knee_tokens && prev && p->batch - prev > widest) {
            widest = p->batch - prev;
            best = prev + widest / 2;
        }
        prev = p->batch;
    }
    return best;
}

static int next_for_a(const struct auto_fit *f, const struct auto_goal *g, char *why, size_t size)
{
    if (f->n_above >= 3 && f->a_rel <= g->target && f->rss_a_rel <= g->target) {
        snprintf(why, size, "A's 95%% interval is +-%.2f%%, within the target of %.2f%%", 100 * f->a_rel,
                 100 * g->target);
        return 0;
    }
    int b = larger_batch(f, g, g->room_mib);
    if (!b)
        b = gap_batch(f);
    if (!b)
        snprintf(why, size, "no unmeasured batch above the knee is predicted to fit in %.0f MiB", g->room_mib);
    return b;
}

int auto_largest_within(const struct auto_fit *f, double budget_mib, double *peak_mib)
{
    int best = 0;
    for (int i = 0; i < f->n; i++) {
        const struct auto_point *p = &f->pts[i];
        if (p->ok && p->baseline_mib + p->rss_mib <= budget_mib) {
            best = p->batch;
            *peak_mib = p->baseline_mib + p->rss_mib;
        }
    }
    return best;
}

/* The smallest batch measured over the budget (or failed): none above it. */
static int over_budget(const struct auto_fit *f, double budget_mib)
{
    for (int i = 0; i < f->n; i++)
        if (!f->pts[i].ok || f->pts[i].baseline_mib + f->pts[i].rss_mib > budget_mib)
            return f->pts[i].batch;
    return LIMIT_BATCH_MAX + 1;
}

/* MiB of RSS per sample: from the line through the points above the knee
 * (upper: its 95% upper end, or +10% without one), else by arithmetic
 * scaled by RSS over allocator peak (upper: +10%). */
static double per_sample_mib(const struct auto_fit *f, const struct auto_goal *g, int upper)
{
    double ratio = f->rss_per_tensor > 0 ? f->rss_per_tensor : 1.2;
    if (f->n_above >= 2 && f->rss.c[1] > 0) {
        double half = ols_ci95(&f->rss, 1), a = f->rss.c[1];
        return (a + (upper ? (isfinite(half) ? half : 0.1 * a) : 0)) * g->seq_len;
    }
    return g->arith_per_token_mib * g->seq_len * ratio * (upper ? 1.1 : 1.0);
}

/* The largest batch whose upper predicted peak fits usable: by the fit,
 * or before a line exists by arithmetic. */
static int predicted_batch(const struct auto_fit *f, const struct auto_goal *g, double usable, int cap)
{
    double ratio = f->rss_per_tensor > 0 ? f->rss_per_tensor : 1.2;
    double per_sample = f->n_above >= 2 ? f->rss.c[1] * g->seq_len : g->arith_per_token_mib * g->seq_len * ratio;
    double fixed = f->n_above >= 2 ? f->rss.c[0] : g->arith_fixed_mib * ratio;
    double by_line = per_sample > 0 ? (usable - fixed) / per_sample + 1 : 0;
    int top = by_line < cap - 1 ? (int)fmax(by_line, 0) : cap - 1;
    for (int c = top; c > 0; c--)
        if (fits_room(f, c, g, usable))
            return c;
    return 0;
}

static int next_for_budget(const struct auto_fit *f, const struct auto_goal *g, char *why, size_t size)
{
    double peak = 0, usable = fmin(g->budget_mib - f->baseline_mib, g->room_mib);
    int b0 = auto_largest_within(f, g->budget_mib, &peak), cap = over_budget(f, g->budget_mib);
    if (!b0) {
        snprintf(why, size, "not even b = %d stayed within the budget", f->n ? f->pts[0].batch : 1);
        return 0;
    }
    if (b0 + 1 >= cap || peak + per_sample_mib(f, g, 0) > g->budget_mib) {
        snprintf(why, size, "b = %d is the largest micro-batch within the budget: %s", b0,
                 b0 + 1 >= cap ? "the next size up failed or was measured over it"
                               : "one more sample is predicted over it");
        return 0;
    }
    int b = b0 + (int)floor((f->baseline_mib + usable - peak) / per_sample_mib(f, g, 1));
    int other = predicted_batch(f, g, usable, cap);
    b = other > b ? other : b;
    if (f->n_above < 2 && b > AUTO_UNFITTED_STEP * b0)
        b = AUTO_UNFITTED_STEP * b0;
    b = b < cap ? b : cap - 1;
    if (b <= b0 || auto_fit_measured(f, b)) {
        snprintf(why, size, "b = %d is the largest micro-batch within the budget at the upper end of the "
                 "prediction", b0);
        return 0;
    }
    return b;
}

int auto_next_batch(const struct auto_fit *f, const struct auto_goal *g, char *why, size_t size)
{
    int coarse[AUTO_N_COARSE];
    if (auto_coarse_missing(f, g, coarse))
        return coarse[0];
    return g->budget_mib > 0 ? next_for_budget(f, g, why, size) : next_for_a(f, g, why, size);
}
