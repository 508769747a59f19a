/* group_fit.h: the fits of one group (fit/group_key.h) and one metric:
 * peak = max(P, F + A*T) (T = batch * seq_len tokens), and where seq_len
 * varies also max(P, F + A*T + B*b*s^2), the attention-score term of
 * Korthikanti et al. (2022). P is the floor found from the data
 * (fit/floor.h); without one the peak is the line. The quadratic model is
 * chosen when an F-test of the b*s^2 term on the points above the knee
 * gives p < 0.05; else the line. Intervals are for a new measurement. */
#ifndef PEAKFIT_GROUP_FIT_H
#define PEAKFIT_GROUP_FIT_H
#include "fit/group_key.h"
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
    char reason[256];
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
/* Fits one group: the observations in o->ok with this key. Returns 0, -1
 * when the group has no points, -2 when memory ran out; g is freeable
 * whatever it returns. */
int group_fit_run(const struct observations *o, const struct group_key *key, enum metric metric,
                  struct group_fit *g);
/* group_fit_run, with the floor's points taken from exact, an
 * allocator-level fit of the same points (tensor on the CPU, allocated on
 * a GPU), where that floor fits this metric better than the line alone;
 * else searched as always. exact may be NULL. */
int group_fit_run_hinted(const struct observations *o, const struct group_key *key, enum metric metric,
                         const struct group_fit *exact, struct group_fit *g);
/* The allocator-level metric whose floor hints m's (METRIC_COUNT: none). */
enum metric metric_exact_for(enum metric m);
void group_fit_free(struct group_fit *g);
/* Predicted peak (MiB) at batch b and seq_len s, the larger of P and the
 * line (and never below the allocator-level prediction where has_lower),
 * with the 95% prediction half-width for a new measurement there (NAN when
 * there is none: no residual dof). */
double group_predict(const struct group_fit *g, double b, double s, double *pi95);
/* A held-out point's prediction error, in % of its measured peak. */
double group_held_error_pct(const struct group_fit *g, int i);
/* Did held-out point i fall inside its prediction interval? */
int group_held_inside(const struct group_fit *g, int i);
/* Does the floor set the predicted peak at (b, s)? */
int group_floor_binds(const struct group_fit *g, double b, double s);
/* The line alone at (b, s), the gap's per-sample term included: what the
 * peak is above the knee. */
double group_line_at(const struct group_fit *g, double b, double s);
/* The knee at seq_len s: the tokens where the line reaches P (NAN without a floor). */
double group_knee_tokens(const struct group_fit *g, double s);
/* Activation memory per sample at seq_len s: A*s + B*s^2 (MiB). */
double group_per_sample(const struct group_fit *g, double s);
/* Measured at seq_len 1 only (a command job without seq_len: a model
 * with no sequence): a token is a sample, A is per sample. */
int group_is_per_sample(const struct group_fit *g);

/* Shared by the files of one group fit (group_fit.c, group_floor_points.c,
 * group_checks.c, group_predict.c); not for callers outside fit/group_*. */
/* b*s^2 at a point: the attention-score term's variable. */
double group_bs2(const struct observation *p);
/* The prediction from a line fit f at point p: the larger of P and the line. */
double group_point_predict(const struct group_fit *g, const struct ols *f, const struct observation *p);
/* x1 = T, x2 = b*s^2 and y for the points, all (all) or those above the knee; returns how many. */
int group_design(const struct group_fit *g, int all, double *x1, double *x2, double *y);
/* What the metric's peak comes on top of at one observation. */
double group_metric_baseline(const struct observation *o, enum metric m);
/* A new point's leverage on the floor at T tokens. */
double group_floor_leverage(const struct floor_search *f, double tokens);

/* group_floor_points.c */
int group_same_points(const struct group_fit *g, const struct group_fit *exact);
int group_find_floor(struct group_fit *g, const struct group_fit *exact, double *x1, double *x2, double *y);
/* group_gap.c: the fit as exact's plus a gap (see gap_model); -1 out of memory */
int group_gap_fit(struct group_fit *g, const struct group_fit *exact);
/* The coefficients fitted to this metric's points (dof). */
int group_coefficients(const struct group_fit *g);
/* group_predict.c: the gap's per-sample term (MiB per sample; 0 but in a
 * gap model whose gap has one), and a new point's leverage on the chosen
 * line (on the gap's fit where that has the per-sample term). */
double group_gap_per_sample(const struct group_fit *g);
double group_line_leverage(const struct group_fit *g, double b, double s);

/* group_checks.c: each needs the chosen model (group_chosen non-NULL) but group_fixed_costs */
void group_leave_one_out(struct group_fit *g);
void group_prediction_spread(struct group_fit *g);
void group_fixed_costs(struct group_fit *g);
void group_flag_poor_fit(struct group_fit *g);

/* group_spread.c: RSS's spread between runs (see run_spread), set by
 * group_prediction_spread; the 95% half-width alone at prediction y (0
 * where none); the half-width of a new measurement with the fit's own
 * variance fit_var (sigma^2 (1 + leverage)) and the spread's together;
 * the default r; and "1.05% (the default, ...)" */
void group_run_spread(struct group_fit *g);
double group_run_spread_pi95(const struct group_fit *g, double y);
double group_interval_half(const struct group_fit *g, double fit_var, double y);
double group_run_spread_default(void);
/* A prediction's 95% half-width pi95 at y for a measurement on another
 * machine than the fit's (another CPU): RSS adds the spread between
 * machines in quadrature; the allocator-level metrics are the same there. */
double group_other_machine_pi95(const struct group_fit *g, double y, double pi95);
/* The relative sd of RSS between two machines at one point. */
double group_machine_spread(void);
void group_run_spread_describe(const struct group_fit *g, char *out, unsigned long size);
#endif
