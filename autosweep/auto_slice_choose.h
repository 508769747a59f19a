/* auto_slice_choose.h: the points `peakfit auto --slices` measures at
 * each depth. The fit across depths (fit/depth_fit.h) needs, at every
 * depth, the floor and the forward phase's line: b = 1 and 2 (and 3 where
 * there are two depths only), the cheapest points there are. The step's line (backward's, rising faster than
 * forward's by what the loss's gradient adds) shows only above the knee,
 * where the points cost the most; it is measured at the shallowest depth
 * alone, at the three smallest batches predicted above the knee (a line
 * with a residual: a plan from two would rest on too little), and the
 * fit carries its excess over forward to the other depths; where that knee
 * is too far (AUTO_SLICE_FAR_KNEE) and the excess is known by arithmetic,
 * not at all. */
#ifndef PEAKFIT_AUTO_SLICE_CHOOSE_H
#define PEAKFIT_AUTO_SLICE_CHOOSE_H
#include <stddef.h>
#include "autosweep/auto_fit.h"

enum { AUTO_SLICE_ABOVE = 3, AUTO_SLICE_COARSE_MAX = 3 };
/* The knee too far to measure: past this many times the coarse start's
 * largest batch, where backward's excess is known by arithmetic
 * (fit/depth_fit.h: depth_logits_grad_known), it is not measured
 * (Mistral-7B full training at 1 layer: past b = 29 at s = 128). */
enum { AUTO_SLICE_FAR_KNEE = 8 };

struct auto_slice_goal {
    int seq_len;
    int shallowest;              /* this track is the shallowest depth's */
    /* b = 1 ... coarse at every depth: 2, or 3 with two depths only (a
     * residual for the four coefficients of the fit across depths) */
    int coarse;
    int excess_known;            /* the fit can take backward's excess by arithmetic */
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
