/* group_fit.h: the fits of one (model, device, technique) and one metric:
 * peak = F + A*T (T = batch * seq_len tokens), and where seq_len varies
 * also peak = F + A*T + B*b*s^2, the attention-score term of Korthikanti
 * et al. (2022). The quadratic model is chosen when an F-test of the b*s^2
 * term gives p < 0.05; else the line. */
#ifndef PEAKFIT_GROUP_FIT_H
#define PEAKFIT_GROUP_FIT_H
#include "fit/group_key.h"
#include "fit/hinge.h"
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
    /* the hinge (fit/hinge.h), where every point has per-phase peaks: the
     * models above are then fitted to the forward/backward part, and the
     * peak is max(P_step, that line) */
    int hinge;
    struct hinge_point *parts;            /* n entries, with hinge */
    double p_step, p_step_ci95;
    char flags[512];                      /* poor-fit warnings, "; "-separated; empty when none */
    /* held-out points (the sweep's holdout key): measured, not fitted;
     * each one's measured peak, prediction and its 95% half-width */
    int n_held;
    const struct observation **held;
    double *held_y, *held_predicted, *held_ci95;
};

/* A poor fit: R^2 below this, a negative A, or fewer points than
 * coefficients + 2 is flagged in fit's output, fit.csv, fit.json and the report. */
#define GROUP_FIT_R2_MIN 0.9

const char *metric_name(enum metric m);
/* The chosen model's fit: &g->linear, &g->quadratic, or NULL if neither fits. */
const struct ols *group_chosen(const struct group_fit *g);
/* Fits one group: the observations in o->ok with this key. Returns 0, -1
 * when the group has no points, -2 when memory ran out; g is freeable
 * whatever it returns. */
int group_fit_run(const struct observations *o, const struct group_key *key, enum metric metric,
                  struct group_fit *g);
void group_fit_free(struct group_fit *g);
/* Predicted peak (MiB) at batch b and seq_len s, with its 95% half-width:
 * the line's, or with the hinge the larger of P_step and the line's. */
double group_predict(const struct group_fit *g, double b, double s, double *ci95);
/* A held-out point's prediction error, in % of its measured peak. */
double group_held_error_pct(const struct group_fit *g, int i);
/* With the hinge: does the optimizer step set the predicted peak at (b, s)? */
int group_step_binds(const struct group_fit *g, double b, double s);
/* Activation memory per sample at seq_len s: A*s + B*s^2 (MiB). */
double group_per_sample(const struct group_fit *g, double s);
#endif
