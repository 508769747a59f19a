/* auto_fit.h: what the automated sweep needs to know about one technique's
 * points at one seq_len: which lie on the memory floor and which above the
 * knee, the slope A through those above it with its 95% interval, and the
 * expected peak of a new point with the upper end of its prediction
 * interval (for a new measurement, not for the mean line).
 *
 * The floor and the lines are fit/group_fit.c's, as `peakfit fit` fits
 * the same points: floor points (found from the per-phase peaks, the
 * data, or for RSS the allocator-level fit's) do not pull A (issue #18). */
#ifndef PEAKFIT_AUTO_FIT_H
#define PEAKFIT_AUTO_FIT_H
#include "fit/group_choice.h"
#include "fit/group_fit.h"
#include "fit/observations.h"
#include "fit/ols.h"

enum { AUTO_MAX_POINTS = 64 };

struct auto_point {
    int batch;
    double tokens, metric_mib, rss_mib, tensor_mib, baseline_mib, wall_s;
    double forward_mib;     /* the forward phase's peak of the metric; -1: not measured */
    int ok, on_floor;
};

/* Which points: those at seq_len whose group key holds what want wants
 * on every axis (auto_track_choice, autosweep/auto_sweep.h: every setting
 * in the key, from the settings table). */
struct auto_select {
    struct group_choice want;
    int seq_len;
    enum metric metric; /* METRIC_TENSOR or METRIC_RSS: what A is fitted to */
};

struct auto_fit {
    struct auto_point pts[AUTO_MAX_POINTS]; /* ascending batch; failed ones have ok = 0 */
    int n, n_ok, n_above;
    int max_ok_batch, min_failed_batch;     /* 0: none */
    double knee_tokens;     /* the most tokens of a point on the floor; 0: none */
    double floor_rss_mib;   /* the largest RSS above baseline of a floor point */
    double baseline_mib;    /* the last point's */
    double wall_s;          /* every point's worker time, summed */
    double rss_per_tensor;  /* RSS over the allocator's peak at the smallest ok batch; 0: unknown */
    int has_fit;            /* the fits below exist (a line could be fitted) */
    struct group_fit metric_fit, rss_fit; /* their summaries: no per-point arrays */
    struct ols line;        /* metric = F + A*T through the points above the knee */
    struct ols rss;         /* RSS above baseline, the same points */
    double a, a_rel;        /* A, and its 95% half-width over A (INFINITY when not estimable) */
    /* RSS's A and its relative half-width, from the RSS fit (the
     * allocator-level fit plus the heap's gap: fit/group_gap.c). Past the
     * allocator's knee RSS is still in the heap's transition (Qwen2.5-0.5B
     * b 6-8 at s = 128), so a sweep that stops on the allocator's A alone
     * leaves RSS's slope to points that do not show it. */
    double rss_a, rss_a_rel;
};

/* Reads the selected points of o (held-out points excluded) and fits them. */
void auto_fit_read(const struct observations *o, const struct auto_select *sel, struct auto_fit *out);
/* Expected RSS above baseline at batch b (group_predict: the floor, rising
 * with T where it does, or the line), and the upper end of its 95%
 * prediction interval in *upper (the estimate + 10% where the fit has no
 * residual degrees of freedom). Never below the largest floor point's. */
double auto_fit_rss(const struct auto_fit *f, int b, int seq_len, double *upper);
/* Has f a point at batch b, measured or failed? */
int auto_fit_measured(const struct auto_fit *f, int b);
#endif
