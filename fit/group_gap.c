/* group_gap.c: RSS (or the device's reserved memory) as the allocator-level
 * fit of the same points plus a gap. RSS holds every live tensor byte, and
 * the heap keeps part of what was freed: glibc reuses or keeps freed
 * activation chunks instead of returning them, so the gap grows with the
 * activations, that is with T. On the allocator's floor (the optimizer
 * step or late backward, the activations freed) RSS is that floor plus
 * what the heap kept of them; above it, the allocator's line plus a gap
 * linear in T. Fitting the gap rather than RSS alone:
 *   - B (the b*s^2 term) and the knee come from the exact counts;
 *   - RSS's A is the allocator's plus the gap's slope, never below it
 *     (points in the heap's transition, just past the knee, can tilt a
 *     free RSS line below the allocator's: Qwen2.5-0.5B b 6-8);
 *   - with one token count on the floor its rise is taken proportional
 *     to T (nothing freed, nothing kept, at T = 0: `load` keeps 2.5 MiB);
 *   - where the points above the knee span two seq_lens, the gap also has
 *     a per-sample term c2*b: at the same T the heap keeps more with more,
 *     shorter samples (SmolLM2-135M: b30 s128 ~230 MiB over b15 s256; all
 *     measured shapes, bench/results/rss-gap-shape.txt). One seq_len
 *     cannot tell it from T: a prediction at another s is then the line's.
 * Chosen by leave-one-out on the auto sweeps' own points
 * (bench/rss-model-cv.py, bench/results/rss-model-cv.txt). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/group_gap.h"

int group_coefficients(const struct group_fit *g)
{
    return g->gap_model ? (g->gap.p == 3 ? 3 : 2) : group_chosen(g)->p;
}

/* exact's prediction at point i: its line, or its floor where that binds. */
static double exact_at(const struct group_fit *exact, int i)
{
    return group_point_predict(exact, group_chosen(exact), exact->points[i]);
}

/* The floor on exact's floor points; with one token count there, rising
 * in proportion to T over exact's floor. */
static void gap_floor(struct group_fit *g, const struct group_fit *exact, const double *x1)
{
    memcpy(g->on_floor, exact->on_floor, (size_t)g->n);
    floor_through(x1, g->y, g->n, g->on_floor, &g->floor);
    if (g->floor.found && g->floor.t_sxx == 0 && g->floor.t_mean > 0) {
        double kept = g->floor.p_mib - floor_at(&exact->floor, g->floor.t_mean);
        g->floor.slope = kept > 0 ? kept / g->floor.t_mean : 0;
        g->floor.proportional = g->floor.slope > 0;
    }
}

/* The heap cannot keep more per token than the allocator's activations
 * (its A), and a point above the knee is max(floor, line), so the floor
 * passes under each one measured there: the floor's rise is capped at
 * both (a tiny model's fixed heap overhead at its one floor point is no
 * rise per token). */
static void cap_rise(struct group_fit *g, const struct group_fit *exact)
{
    double cap = fmax(group_chosen(exact)->c[1], 0);
    for (int i = 0; i < g->n; i++)
        if (!g->on_floor[i] && g->points[i]->tokens > g->floor.t_mean)
            cap = fmin(cap, fmax(g->y[i] - g->floor.p_mib, 0) / (g->points[i]->tokens - g->floor.t_mean));
    g->floor.slope = fmin(g->floor.slope, cap);
}

/* gap = c0 + c1*T through the m points (t, e), c1 >= 0: a falling gap is
 * the heap's transition, not a trend, and is held level at its mean; the
 * slope keeps the free fit's interval (it is no better known for being
 * held at 0). */
static void gap_line(const double *t, const double *e, int m, struct ols *f)
{
    ols_fit(t, NULL, e, m, f);
    if (!f->identifiable || f->c[1] >= 0)
        return;
    double mean;
    f->rss = ols_total_sum_of_squares(e, m, &mean);
    f->c[0] = mean, f->c[1] = 0;
}

/* The gap's fit: where the m points span two seq_lens or more, with the
 * per-sample term c2*b, always (no test): at a shape not measured the
 * prediction then carries that term's uncertainty, where a dropped term
 * would leave an interval as narrow as at the shapes measured. It needs
 * two residual dof (m >= 5) and a rising gap (c1 >= 0); else the line. */
static void gap_fit(const double *t, const double *b, const double *e, int m, int shapes, struct ols *f,
                    const char **no_term)
{
    *no_term = NULL;
    if (shapes >= 2 && m >= 5) {
        ols_fit(t, b, e, m, f);
        if (f->identifiable && f->c[1] >= 0)
            return;
        *no_term = "no per-sample term: with it the gap falls with T";
    } else if (shapes >= 2) {
        *no_term = "no per-sample term: it needs 5 points above the knee";
    }
    gap_line(t, e, m, f);
}

/* 2 where the points above the knee span two seq_lens or more, 1 one, 0 none. */
static int shapes_above(const struct group_fit *g)
{
    int first = -1;
    for (int i = 0; i < g->n; i++) {
        if (g->on_floor[i])
            continue;
        if (first < 0)
            first = g->points[i]->seq_len;
        else if (g->points[i]->seq_len != first)
            return 2;
    }
    return first < 0 ? 0 : 1;
}

/* exact's line plus the gap's, with the gap's uncertainty (exact's counts
 * are exact to the byte); r2 against this metric's points above the knee. */
static void lift(struct ols *line, const struct ols *exact, const struct ols *gap, const double *y, int m)
{
    *line = *exact;
    line->c[0] += gap->c[0], line->c[1] += gap->c[1];
    memset(line->cov, 0, sizeof line->cov), memset(line->xtx_inv, 0, sizeof line->xtx_inv);
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < 2; k++)
            line->cov[j][k] = gap->cov[j][k], line->xtx_inv[j][k] = gap->xtx_inv[j][k];
    double tss = ols_total_sum_of_squares(y, m, NULL);
    line->n = m, line->rss = gap->rss, line->t975 = gap->t975, line->identifiable = gap->identifiable;
    line->r2 = tss > 0 ? 1 - gap->rss / tss : 1;
}

/* The smallest gap measured, over every point: RSS is never below the
 * allocator's prediction plus it, and below the fewest tokens measured
 * never below it scaled down in proportion to T (nothing freed, nothing
 * kept, at T = 0: SmolLM2's b1 s128 kept 135 MiB, its b1 s256 349). */
static void lower_bound(struct group_fit *g, const struct group_fit *exact)
{
    g->has_lower = 1;
    g->lower = *group_chosen(exact);
    g->lower_floor = exact->floor;
    g->lower_gap = INFINITY;
    g->lower_tokens = INFINITY;
    for (int i = 0; i < g->n; i++) {
        g->lower_gap = fmin(g->lower_gap, g->y[i] - exact_at(exact, i));
        g->lower_tokens = fmin(g->lower_tokens, g->points[i]->tokens);
    }
    g->lower_gap = isfinite(g->lower_gap) ? fmax(g->lower_gap, 0) : 0;
    g->lower_tokens = isfinite(g->lower_tokens) ? g->lower_tokens : 0;
}

int group_gap_fit(struct group_fit *g, const struct group_fit *exact)
{
    double *w = malloc(5 * (size_t)g->n * sizeof *w);
    if (!w)
        return -1;
    double *x1 = w, *t = w + g->n, *e = w + 2 * g->n, *y = w + 3 * g->n, *b = w + 4 * g->n;
    for (int i = 0; i < g->n; i++)
        x1[i] = g->points[i]->tokens;
    g->gap_model = 1;
    gap_floor(g, exact, x1);
    if (g->floor.found)
        cap_rise(g, exact);
    int m = 0;
    for (int i = 0; i < g->n; i++)
        if (!g->on_floor[i])
            t[m] = x1[i], b[m] = g->points[i]->batch, e[m] = g->y[i] - exact_at(exact, i), y[m++] = g->y[i];
    g->n_above = m;
    struct ols gap;
    const char *no_term;
    gap_fit(t, b, e, m, shapes_above(g), &gap, &no_term);
    g->gap = gap;
    lift(&g->linear, group_chosen(exact), &gap, y, m);
    g->quadratic = g->linear;
    g->choice = gap.identifiable ? exact->choice : CHOICE_NONE;
    g->f_stat = g->f_p = g->aic_linear = g->aic_quadratic = NAN;
    /* exact's reason says why linear or quadratic: the same choice here */
    if (gap.identifiable && gap.p == 3)
        snprintf(g->reason, sizeof g->reason, "%.150s; plus the heap's gap %.1f + %.4f*T %c %.2f*b MiB above the knee",
                 exact->reason, gap.c[0], gap.c[1], gap.c[2] < 0 ? '-' : '+', fabs(gap.c[2]));
    else if (gap.identifiable)
        snprintf(g->reason, sizeof g->reason, "%.150s; plus the heap's gap %.1f + %.4f*T MiB above the knee%s%s",
                 exact->reason, gap.c[0], gap.c[1], no_term ? "; " : "", no_term ? no_term : "");
    else
        snprintf(g->reason, sizeof g->reason, "%.180s; no gap: fewer than two token counts above the knee", exact->reason);
    lower_bound(g, exact);
    free(w);
    return 0;
}
