/* auto_slice_choose.c: the next points of one slice's track
 * (autosweep/auto_slice_choose.h). */
#include <math.h>
#include <stdio.h>
#include "autosweep/auto_slice_choose.h"
#include "fit/phases.h"
#include "sweeps/limits.h"

/* Points above the knee: their peak over the smallest measured batch's by
 * more than a tie (the smallest batch may be above it too: then one point
 * more than needed is measured, never one too few). *floor_b: the largest
 * batch at the smallest's peak. */
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
        if (p->metric_mib > low->metric_mib + PHASES_TIE_MIB)
            n++;
        else
            *floor_b = p->batch;
    }
    return n;
}

/* The line a point at t tokens is expected on: forward's through b = 1
 * and 2, plus the guessed excess. 0 when forward's is not known. */
static int expected_line(const struct auto_fit *f, const struct auto_slice_goal *g, double *at0, double *slope)
{
    const struct auto_point *a = &f->pts[0], *b = &f->pts[1];
    if (f->n < 2 || !a->ok || !b->ok || a->forward_mib < 0 || b->forward_mib < 0 || b->tokens <= a->tokens)
        return 0;
    double forward_slope = (b->forward_mib - a->forward_mib) / (b->tokens - a->tokens);
    *at0 = a->forward_mib - forward_slope * a->tokens;
    *slope = forward_slope + g->excess_per_token_mib;
    return *slope > 0;
}

/* The smallest batch above `after` expected to clear the floor (the
 * smallest batch's peak) by 0.5 %; without forward's line, twice after. */
static int first_above_knee(const struct auto_fit *f, const struct auto_slice_goal *g, int after)
{
    double at0, slope;
    if (!expected_line(f, g, &at0, &slope))
        return 2 * after;
    double tokens = (f->pts[0].metric_mib * 1.005 - at0) / slope;
    int b = (int)ceil(tokens / g->seq_len);
    /* A guess that fell on the floor was low: half as far again past it. */
    if (after > g->coarse && b <= after * 3 / 2)
        b = after * 3 / 2;
    return b > after ? b : after + 1;
}

/* Does batch b fit the room? Its expected peak (the line, or the floor),
 * scaled to RSS as the smallest point's was (never down), +10 %. */
static int fits_room(const struct auto_fit *f, const struct auto_slice_goal *g, int b)
{
    double at0, slope, peak = f->pts[0].metric_mib;
    if (expected_line(f, g, &at0, &slope))
        peak = fmax(peak, at0 + slope * b * g->seq_len);
    return peak * fmax(f->rss_per_tensor, 1.0) * 1.1 <= g->room_mib;
}

int auto_slice_next(const struct auto_fit *f, const struct auto_slice_goal *g, int *out, char *why, size_t size)
{
    int n = 0;
    for (int b = 1; b <= g->coarse; b++)
        if (!auto_fit_measured(f, b))
            out[n++] = b;
    if (n > 0)
        return n;
    if (!g->shallowest) {
        snprintf(why, size, "b = %s give this depth's floor and forward line; the step's rise is measured at "
                 "the shallowest depth", g->coarse == 2 ? "1 and 2" : "1, 2 and 3");
        return 0;
    }
    int floor_b, above = count_above(f, &floor_b);
    if (above >= AUTO_SLICE_ABOVE) {
        snprintf(why, size, "%d points above the knee: the step's rise over forward's", above);
        return 0;
    }
    if (f->min_failed_batch) {
        snprintf(why, size, "b = %d failed, with %d points above the knee", f->min_failed_batch, above);
        return 0;
    }
    int b = first_above_knee(f, g, floor_b > f->max_ok_batch ? floor_b : f->max_ok_batch);
    if (above == 0 && g->excess_known && b > AUTO_SLICE_FAR_KNEE * g->coarse) {
        snprintf(why, size, "the knee is past b = %d, over %d times the largest batch here: backward's rise over "
                 "forward is taken by arithmetic (the logits' gradient, vocabulary x 4 bytes a token)", b - 1,
                 AUTO_SLICE_FAR_KNEE);
        return 0;
    }
    for (; n < AUTO_SLICE_ABOVE - above; n++, b += b / 4 > 1 ? b / 4 : 1) {
        if (b > LIMIT_BATCH_MAX || !fits_room(f, g, b))
            break;
        out[n] = b;
    }
    if (n == 0)
        snprintf(why, size, "b = %d, the next above the knee, would not fit the memory free here", b);
    return n;
}
