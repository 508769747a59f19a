/* auto_slice_choose.c: the next points of one slice's track
 * (autosweep/auto_slice_choose.h). */
#include <math.h>
#include <stdio.h>
#include "autosweep/auto_slice_choose.h"
#include "fit/phases.h"
#include "sweeps/limits.h"

/* Is p above the knee: its step's peak over its optimizer step's (the
 * floor; backward's own floor ties with it or lies below) by more than a
 * tie? Without phases, over the smallest measured batch's peak (which may
 * be above the knee too: then one point more than needed is measured,
 * never one too few). */
static int above_knee(const struct auto_point *p, const struct auto_point *low)
{
    double floor = p->optimizer_mib >= 0 ? p->optimizer_mib : low->metric_mib;
    return p->metric_mib > floor + PHASES_TIE_MIB;
}

/* Points above the knee; *floor_b: the largest batch on the floor. */
static int count_above(const struct auto_fit *f, int *floor_b)
{
    int n = 0;
    const struct auto_point *low = NULL;
    *floor_b = 0;
    for (int i = 0; i < f->n; i++) {
        const struct auto_point *p = &f->pts[i];
        if (!p->ok)
            continue;
        low = low ? low : p;
        if (above_knee(p, low))
            n++;
        else
            *floor_b = p->batch;
    }
    return n;
}

/* The floor a point above the knee must clear: the optimizer step's peak
 * where measured, else the smallest batch's peak. */
static double floor_of(const struct auto_fit *f)
{
    for (int i = 0; i < f->n; i++)
        if (f->pts[i].ok)
            return f->pts[i].optimizer_mib >= 0 ? f->pts[i].optimizer_mib : f->pts[i].metric_mib;
    return NAN;
}

/* The line a point at t tokens is expected on: forward's, through its
 * first two measured points, or through one and its value at T = 0 by
 * arithmetic; plus the guessed excess. 0 when forward's is not known. */
static int expected_line(const struct auto_fit *f, const struct auto_slice_goal *g, double *at0, double *slope)
{
    const struct auto_point *a = NULL, *b = NULL;
    for (int i = 0; i < f->n && !b; i++) {
        const struct auto_point *p = &f->pts[i];
        if (p->ok && p->forward_mib >= 0 && p->tokens > 0)
            *(a ? &b : &a) = p;
    }
    double forward_slope;
    if (a && b && b->tokens > a->tokens)
        forward_slope = (b->forward_mib - a->forward_mib) / (b->tokens - a->tokens);
    else if (a && isfinite(g->forward_at0_mib))
        forward_slope = (a->forward_mib - g->forward_at0_mib) / a->tokens;
    else
        return 0;
    *at0 = a->forward_mib - forward_slope * a->tokens;
    *slope = forward_slope + g->excess_per_token_mib;
    return *slope > 0;
}

/* The smallest batch above `after` expected to clear the floor by 0.5 %;
 * without forward's line, twice after. A guess that fell on the floor
 * with none above it was low: then half as far again past it. */
static int first_above_knee(const struct auto_fit *f, const struct auto_slice_goal *g, int after, int above)
{
    double at0, slope;
    if (!expected_line(f, g, &at0, &slope))
        return 2 * after;
    double tokens = (floor_of(f) * 1.005 - at0) / slope;
    int b = (int)ceil(tokens / g->seq_len);
    if (above == 0 && after > 2 && b <= after * 3 / 2)
        b = after * 3 / 2;
    return b > after ? b : after + 1;
}

/* Does batch b fit the room? Its expected peak (the line, or the floor;
 * before any point, the arithmetic's), scaled to RSS as the smallest
 * point's was (never down), +10 %; the arithmetic's +20 %. */
static int fits_room(const struct auto_fit *f, const struct auto_slice_goal *g, int b)
{
    double at0, slope;
    if (f->n_ok == 0)
        return g->predicted_peak_mib * 1.2 <= g->room_mib;
    double peak = floor_of(f);
    if (expected_line(f, g, &at0, &slope))
        peak = fmax(peak, at0 + slope * b * g->seq_len);
    return peak * fmax(f->rss_per_tensor, 1.0) * 1.1 <= g->room_mib;
}

/* The batches chosen before this track's points say anything, the
 * missing ones into out: b = 1 and 2 at a depth that does not measure
 * the rise; at the one that does, b = 1 first where it is measured (its
 * forward peak places the knee better than the arithmetic), or the two
 * batches predicted above the knee (b = 1 and 2 where the arithmetic does
 * not know the step). */
static int planned(const struct auto_fit *f, const struct auto_slice_goal *g, int *out)
{
    int want[AUTO_SLICE_MAX_NEXT], n_want = 0, n = 0;
    if (g->rise && g->with_one && isfinite(g->forward_at0_mib))
        want[n_want++] = 1;
    else if (g->rise && g->predicted > 0 && f->n == 0 && fits_room(f, g, g->predicted + 1))
        want[n_want++] = g->predicted, want[n_want++] = g->predicted + 1;
    else if (!g->rise || g->predicted <= 0 || f->n == 0)
        want[n_want++] = 1, want[n_want++] = 2;
    for (int i = 0; i < n_want; i++)
        if (!auto_fit_measured(f, want[i]))
            out[n++] = want[i];
    return n;
}

int auto_slice_next(const struct auto_fit *f, const struct auto_slice_goal *g, int *out, char *why, size_t size)
{
    int n = planned(f, g, out);
    if (n > 0)
        return n;
    if (!g->rise) {
        snprintf(why, size, "b = 1 and 2 give this depth's floor and forward line; the step's rise is measured at "
                 "%d layer%s", g->rise_depth, g->rise_depth == 1 ? "" : "s");
        return 0;
    }
    /* Two points above the knee, and with b = 1 three points in all: the fit's residual. */
    int floor_b, above = count_above(f, &floor_b);
    int more = AUTO_SLICE_ABOVE - above, residual = g->with_one ? AUTO_SLICE_ABOVE + 1 - f->n_ok : 0;
    more = residual > more ? residual : more;
    if (more <= 0) {
        snprintf(why, size, "%d points above the knee: the step's rise over forward's", above);
        return 0;
    }
    if (f->min_failed_batch) {
        snprintf(why, size, "b = %d failed, with %d points above the knee", f->min_failed_batch, above);
        return 0;
    }
    int b = first_above_knee(f, g, f->max_ok_batch > floor_b ? f->max_ok_batch : floor_b, above);
    for (; n < more && n < AUTO_SLICE_MAX_NEXT; n++, b++) {
        if (b > LIMIT_BATCH_MAX || !fits_room(f, g, b))
            break;
        out[n] = b;
    }
    if (n == 0)
        snprintf(why, size, "b = %d, the next above the knee, would not fit the memory free here", b);
    return n;
}
