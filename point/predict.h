/* predict.h: a point's expected peak RSS, before it runs, so that a
 * parallel run starts it only when the machine's free memory would hold it:
 * from the points of its kind measured so far, or before any has finished,
 * from its parameter count. */
#ifndef PEAKFIT_PREDICT_H
#define PEAKFIT_PREDICT_H
#include "point/grid.h"

struct predict_seen {
    const struct grid_point *p;
    double peak_mib;      /* its peak RSS above baseline */
};

struct predictor {
    const struct sweep *sweep;
    struct predict_seen *seen;
    int n, cap;
    /* per job (sweep->jobs): the last baseline one of its points reported
     * that was not above its own peak; a guess before */
    double baseline_mib[SWEEP_MAX_JOBS];
};

void predictor_init(struct predictor *pr, const struct sweep *sweep);
/* What a finished point measured, as the predictor learns it: its status
 * ("ok", ...), its peak RSS and its baseline RSS in MiB (negative: none). */
struct predict_measured {
    const char *status;
    double peak_rss_mib, baseline_rss_mib;
};
/* Learns from a finished point (only an ok one with its peak counts; its
 * baseline, when not above its peak, is its job's, never another job's). */
void predictor_learn(struct predictor *pr, const struct grid_point *p, const struct predict_measured *r);
/* Its expected peak RSS, baseline included, in MiB. A point of the same
 * model, device, technique and attention already measured with at least
 * as many tokens: that peak; with fewer: its peak above baseline plus the
 * added tokens' activations by arithmetic (+25%), or scaled by the tokens
 * where there is no arithmetic; none: weights, gradients and AdamW state by arithmetic
 * (models/param_count.h) and a rough activation term. Never above its
 * mem_limit (the watchdog stops it there). */
double predictor_peak_mib(const struct predictor *pr, const struct grid_point *p);
/* The baseline in that: its job's. */
double predictor_baseline_mib(const struct predictor *pr, const struct grid_point *p);
void predictor_free(struct predictor *pr);

#endif
