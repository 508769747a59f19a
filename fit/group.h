/* group.h: the fit of one group (settings/group_key.h) and one metric:
 * peak = max(P, F + A*T) (T = batch * seq_len tokens), and where seq_len
 * varies also max(P, F + A*T + B*b*s^2), the attention-score term of
 * Korthikanti et al. (2022). P is the floor found from the data
 * (fit/floor.h); without one the peak is the line. The quadratic model is
 * chosen when an F-test of the b*s^2 term on the points above the knee
 * gives p < 0.05; else the line. Intervals are for a new measurement.
 * The struct and its metrics, read by every part of the fit; the parts,
 * lowest first: group_floor_points.h and group_spread.h, group_gap.h,
 * group_predict.h, group_checks.h, and group_fit.h, which runs them. */
#ifndef PEAKFIT_GROUP_H
#define PEAKFIT_GROUP_H
#include "settings/group_key.h"
#include "fit/floor.h"
#include "fit/hardware.h"
#include "fit/observations.h"
#include "fit/ols.h"

/* What is fitted: on every row rss (peak above baseline) and tensor (the
 * counting CPU allocator's peak); on GPU rows also the device's caching
 * allocator's allocated and reserved peaks. A group has a fit for each
 * metric its rows have. */
enum metric { METRIC_RSS, METRIC_TENSOR, METRIC_ALLOCATED, METRIC_RESERVED, METRIC_COUNT };

/* The arrays hold n entries (n_seq for seq_lens), allocated by
 * group_fit_run: a group has as many points as its sweep measured. */
struct group_fit {
    struct group_key key;
    enum metric metric;
    struct hardware hw;                   /* where its first point was measured */
    int n;
    const struct observation **points;
    double *y;
    int *seq_lens, n_seq;                 /* distinct, ascending */
    int min_batch, max_batch;
    struct ols linear, quadratic;
    double f_stat, f_p;                   /* NAN when not testable */
    double aic_linear, aic_quadratic;
    enum { CHOICE_NONE, CHOICE_LINEAR, CHOICE_QUADRATIC } choice;
    char reason[320];
    double *predicted, *loo_error;
    int loo_n;
    double loo_rmse, loo_max_abs, rmse;
    /* the fixed costs the worker measured, and what of F they leave;
     * baseline_mib is the RSS baseline, or on the GPU metrics the context */
    double weight_mib, grad_mib, optimizer_mib, baseline_mib, overhead_mib;
    double max_tokens;                    /* the largest T measured */
    /* the floor: on_floor (n entries) marks the points on it; the line is
     * fitted to the n_above others */
    struct floor_search floor;
    unsigned char *on_floor;
    int n_above;
    /* a new measurement at a point: the prediction +- t975 * sigma *
     * sqrt(1 + leverage) (RSS: and run_spread's share in quadrature); sigma from the residuals of the whole model
     * (dof = n - coefficients - 1 with a floor); NAN with no dof left */
    double sigma, t975;
    int dof;
    /* RSS only (0 elsewhere): the relative sd of the difference between
     * two runs of one point, added to the interval as (r * prediction)^2
     * (fit/group_spread.c), with the dof of where it comes from; the
     * group's own replicate pairs (their dof) and their estimate (NAN
     * without), and whether r is that estimate (else the default) */
    double run_spread;
    int run_spread_dof, run_spread_pairs, run_spread_from_replicates;
    double run_spread_replicates;
    int has_phases;                       /* every point has per-phase peaks of this metric (evidence, shown) */
    /* RSS holds every live tensor byte, and the device's reserved memory
     * every allocated one. Where the allocator-level fit of the same points
     * (exact) has a line, this one is that fit plus a gap (fit/group_gap.c):
     * on exact's floor, exact's P plus a heap that rises with T; above it,
     * exact's line (its B term too) plus gap0 + gap1*T with gap1 >= 0, so
     * RSS's A is never below the allocator's. gap_model marks it (2 fitted
     * coefficients, whatever p says). Its prediction is never below exact's
     * plus lower_gap, the smallest gap measured (>= 0), scaled by
     * T / lower_tokens below lower_tokens, the fewest tokens measured.
     * gap is the gap's own fit above the knee: x1 = T, and where those
     * points span two seq_lens or more also x2 = b, a per-sample term (p = 3:
     * the heap keeps more per token at a smaller s, SmolLM2-135M's b30 s128
     * against b15 s256); its leverage gives the interval there. */
    int gap_model;
    struct ols gap;
    int has_lower;
    struct ols lower;                     /* the allocator-level fit's chosen line */
    struct floor_search lower_floor;      /* and its floor (found = 0: none) */
    double lower_gap, lower_tokens;       /* MiB (>= 0), tokens */
    /* a fit across depths (fit/depth_fit.h): the whole model predicted
     * from slices of it, none of its points its own (n = 0); key.layers
     * says "DEPTH (slices L1 L2 ...)" */
    int from_slices;
    char flags[512];                      /* poor-fit warnings, "; "-separated; empty when none */
    /* held-out points (the sweep's holdout key): measured, not fitted;
     * each one's measured peak, prediction and its 95% prediction half-width */
    int n_held;
    const struct observation **held;
    double *held_y, *held_predicted, *held_ci95;
};

/* A poor fit: R^2 below this, a negative A, or fewer points than
 * coefficients + 2 is flagged in fit's output, fit.csv, fit.json and the report. */
#define GROUP_FIT_R2_MIN 0.9
/* Points all within this fraction of their mean (or 1 MiB) are a flat
 * peak, which no R^2 or sign of A can fault (fit/group_checks.c). */
#define GROUP_FIT_FLAT 0.002
/* Fewer points than this above the knee: A rests on too little (fit,
 * report and calc warn; calc's exit status says so). */
#define GROUP_FIT_ABOVE_MIN 3

const char *metric_name(enum metric m);
/* The peaks.csv column (PEAKS_COL_...) that holds m's peak, and what its
 * figure is ("above baseline", "reserved on the GPU"): verify compares
 * its runs in the plan's own metric. -1 and "?" for no metric. */
int metric_peaks_column(enum metric m);
const char *metric_measured_as(enum metric m);
/* The per-phase peaks that measure m at o (fit/phases.h): tensor and rss,
 * the counting allocator's; allocated and reserved, the device
 * allocator's (GPU rows since those columns; -1 elsewhere, so their fits
 * infer no floor from phases there). */
const double *metric_phases(const struct observation *o, enum metric m);
/* The phase of point i's peak (fit/phases.h) where its phases measure g's
 * metric, else -1. */
int group_peak_phase(const struct group_fit *g, int i);
/* The chosen model's fit: &g->linear, &g->quadratic, or NULL if neither fits. */
const struct ols *group_chosen(const struct group_fit *g);
/* The allocator-level metric whose floor hints m's (METRIC_COUNT: none). */
enum metric metric_exact_for(enum metric m);
/* b*s^2 at a point: the attention-score term's variable. */
double group_bs2(const struct observation *p);
/* m's peak at o (-1 for no metric). */
double metric_value(const struct observation *o, enum metric m);
/* What the metric's peak comes on top of at one observation. */
double group_metric_baseline(const struct observation *o, enum metric m);
/* The gap's per-sample term (MiB per sample; 0 but in a gap model whose
 * gap has one, fit/group_gap.h). */
double group_gap_per_sample(const struct group_fit *g);
/* The prediction from a line fit f at point p: the larger of P and the line. */
double group_point_predict(const struct group_fit *g, const struct ols *f, const struct observation *p);
/* x1 = T, x2 = b*s^2 and y for the points, all (all) or those above the knee; returns how many. */
int group_design(const struct group_fit *g, int all, double *x1, double *x2, double *y);
#endif
