/* auto_slice_choose.h: the points `peakfit auto --slices` measures at
 * each depth, the fewest that the fit across depths (fit/depth_fit.h)
 * needs, at the least cost. It needs the forward phase's line at every
 * depth (it rises from the first token: any two batches give it; b = 1
 * and 2 are the cheapest), and the step's rise over it, which shows only
 * above the knee, where points cost the most: two points there, at one
 * depth alone (the rise is the same at every depth), the one where they
 * cost the least (autosweep/auto_slice_knee.h). Those two give that
 * depth's forward line too, so it measures nothing below the knee, but
 * b = 1 where the fit would have no residual otherwise (two depths: 2 + 2
 * points for its four coefficients). Where b = 1 is measured first, the
 * batches above the knee are chosen from its forward peak and the states
 * by arithmetic; else from the arithmetic alone, before anything runs;
 * where the arithmetic does not know the step, from b = 1 and 2. */
#ifndef PEAKFIT_AUTO_SLICE_CHOOSE_H
#define PEAKFIT_AUTO_SLICE_CHOOSE_H
#include <stddef.h>
#include "autosweep/auto_fit.h"

enum { AUTO_SLICE_ABOVE = 2, AUTO_SLICE_MAX_NEXT = 3 };

struct auto_slice_goal {
    int seq_len;
    int rise_depth;              /* the depth that measures the rise */
    int rise;                    /* this track is the rise depth's */
    int with_one;                /* the rise depth measures b = 1 too: the fit's residual */
    /* The smallest batch predicted above the knee by arithmetic before
     * anything ran; 0 where the arithmetic does not know the step. */
    int predicted;
    /* The forward phase's peak at T = 0 by arithmetic (weights and
     * optimizer state: the gradients are not live in forward); NAN unknown.
     * With one measured point it gives forward's line. */
    double forward_at0_mib;
    /* What the step's line may add per token over forward's: the logits'
     * gradient (vocabulary x 4 bytes); 0 when unknown. */
    double excess_per_token_mib;
    double room_mib;             /* what a point may use above its baseline */
    double predicted_peak_mib;   /* the arithmetic's peak at `predicted` + 1 (for the room); 0 unknown */
};

/* The batches f's track measures next into out (AUTO_SLICE_MAX_NEXT at
 * most): 0 when it is done, with why (a sentence) in why. */
int auto_slice_next(const struct auto_fit *f, const struct auto_slice_goal *g, int *out, char *why, size_t size);
#endif
