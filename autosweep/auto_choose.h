/* auto_choose.h: the automated sweep's next point for one technique, from
 * what its points so far say (autosweep/auto_fit.h). A coarse start
 * (AUTO_COARSE), then, to measure A: points above the knee, the batch
 * doubled while the upper end of its predicted peak fits the room, else
 * the largest gap between measured batches halved, until A's 95%
 * interval is within the target; or, to find the largest micro-batch under
 * a budget: b = 1, then the largest batch predicted to fit (by arithmetic
 * scaled by b = 1's RSS over its allocator peak, at most AUTO_UNFITTED_STEP
 * times the largest measured, then by the fit), run,
 * and stepped on from the largest measured point with the upper end of
 * the slope, until one more sample would not fit. A step from a measured
 * point is safe on the floor too: there the line lies below the peak. */
#ifndef PEAKFIT_AUTO_CHOOSE_H
#define PEAKFIT_AUTO_CHOOSE_H
#include <stddef.h>
#include "autosweep/auto_fit.h"

#define AUTO_COARSE {1, 2, 4}
enum { AUTO_N_COARSE = 3 };
/* Budget mode starts from b = 1 alone: the arithmetic, scaled by what it
 * measured, says where to go next; but until a line through two points
 * above the knee checks it, a step goes at most this many times the
 * largest batch within the budget (24 GiB once jumped from b = 1 straight
 * to b = 5206, +15.2 GiB). */
enum { AUTO_UNFITTED_STEP = 8 };

struct auto_goal {
    double target;      /* A mode: A's relative 95% half-width to reach (0.02) */
    double budget_mib;  /* > 0: budget mode: the whole process's peak, baseline included */
    double room_mib;    /* what a point may use above its baseline (free memory, mem_limit) */
    int seq_len;
    /* budget mode, before a line exists: the state (weights, gradients,
     * AdamW) and the activations per token by arithmetic (point/predict.h) */
    double arith_fixed_mib, arith_per_token_mib;
};

/* The coarse start's batches f lacks, into out (AUTO_N_COARSE at most): they
 * depend on no measurement, so one round measures them all. */
int auto_coarse_missing(const struct auto_fit *f, const struct auto_goal *g, int *out);
/* The batch to measure next, or 0 to stop, with why (a sentence) in why. */
int auto_next_batch(const struct auto_fit *f, const struct auto_goal *g, char *why, size_t size);
/* Budget mode: the largest measured batch whose peak stayed within the
 * budget, its peak (baseline included) in *peak_mib; 0 when none. */
int auto_largest_within(const struct auto_fit *f, double budget_mib, double *peak_mib);
#endif
