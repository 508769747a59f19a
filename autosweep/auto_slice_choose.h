/* auto_slice_choose.h: the points `peakfit auto --slices` measures at
 * each depth. The fit across depths (fit/depth_fit.h) needs, at every
 * depth, the floor and the forward phase's line: b = 1 and 2, the cheapest
 * points there are. The step's line (backward's, rising faster than
 * forward's by what the loss's gradient adds) shows only above the knee,
 * where the points cost the most; it is measured at the shallowest depth
 * alone, at the two smallest batches predicted above the knee, and the
 * fit carries its excess over forward to the other depths. */
#ifndef PEAKFIT_AUTO_SLICE_CHOOSE_H
#define PEAKFIT_AUTO_SLICE_CHOOSE_H
#include <stddef.h>
#include "autosweep/auto_fit.h"

enum { AUTO_SLICE_COARSE = 2, AUTO_SLICE_ABOVE = 2 };

struct auto_slice_goal {
    int seq_len;
    int shallowest;              /* this track is the shallowest depth's */
    /* What the step's line may add per token over forward's, for the
     * guess of the knee only: the logits' gradient (vocabulary x 4 bytes);
     * 0 when unknown (the guess is then forward's own crossing, later). */
    double excess_per_token_mib;
    double room_mib;             /* what a point may use above its baseline */
};

/* The batches f's track measures next into out (AUTO_SLICE_ABOVE at
 * most): 0 when it is done, with why (a sentence) in why. */
int auto_slice_next(const struct auto_fit *f, const struct auto_slice_goal *g, int *out, char *why, size_t size);
#endif
