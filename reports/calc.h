/* calc.h: `peakfit calc DIR --budget SIZE ...`: from the fit, the largest
 * micro-batch that fits a memory budget, and the gradient-accumulation
 * steps for a target effective batch E = b * a * g. */
#ifndef PEAKFIT_CALC_H
#define PEAKFIT_CALC_H
#include <jansson.h>
#include <stdio.h>
#include "fit/fit_set.h"
#include "fit/group_choice.h"
#include "reports/calibration.h"
#include "reports/process_term.h"
#include "util/exit_status.h"
#include "util/options.h"

/* How a plan is judged: X(enum, words, exit status of calc). A plan fits
 * only when the upper end of the 95% prediction interval of its peak is
 * within the usable budget (budget less --margin); a plan on a fit with
 * fewer than GROUP_FIT_ABOVE_MIN points above the knee is not "fits". */
#define PLAN_OUTCOMES(X)                                                                        \
    X(PLAN_FITS, "fits", EXIT_DONE)                                                             \
    X(PLAN_FITS_ON_TOO_FEW, "fits, but the fit rests on too few points above the knee", EXIT_PLAN_TOO_FEW_POINTS) \
    X(PLAN_FITS_AT_ESTIMATE, "fits at the estimate, not within its interval", EXIT_PLAN_FITS_AT_ESTIMATE) \
    X(PLAN_DOES_NOT_FIT, "does not fit", EXIT_PLAN_DOES_NOT_FIT)
#define PLAN_OUTCOME_ENUM(e, words, status) e,
enum plan_outcome { PLAN_OUTCOMES(PLAN_OUTCOME_ENUM) };
#undef PLAN_OUTCOME_ENUM
const char *plan_outcome_words(enum plan_outcome o);
int plan_outcome_exit(enum plan_outcome o);

struct calc_request {
    /* What the plan's group holds on each axis of the group key but
     * technique (fit/group_choice.h): NULL, the only value measured with
     * the technique (a model by its exact value or display name). */
    struct group_choice choice;
    const char *metric;     /* NULL: calc_metric's; else the fit of that name (tensor: the allocator level) */
    const char *config;     /* NULL: the model's own (a preset or config path); --zero 3 sizes FSDP's units from it */
    const char *technique;
    double budget_mib;      /* the whole process, baseline included */
    double margin;          /* fraction of the budget kept free */
    long seq_len;           /* 0: the largest measured */
    long target_batch;      /* 0: one micro-batch per replica */
    long replicas;
    long micro_batch, accum; /* > 0: evaluate this plan instead */
    int on_measuring_machine; /* 1: plan for the machine that measured (the report), wherever this runs */
    int process;            /* enum plan_process: whose process the whole-process figure is (--process);
                             * command: choice's measured_by names the command that calibrates the worker's fit */
    long zero;              /* ZeRO stage 1-3 across the replicas, 0: none */
    int json;
    /* standalone (no DIR): activation memory per sample, or per token with
     * seq_len, and the fixed cost; unit_* is how sizes are shown */
    double per_sample_mib, per_token_mib, fixed_mib;
    const char *unit_name;
    double unit_mib;
};

/* What one replica holds against the single process the fit measured
 * (calc_shard.c): the line's and the floor's shift (MiB, + held, - sharded
 * away), and the terms added: DDP's gradient buckets, FSDP's unsharded
 * root weights, the root's whole gradients (beyond their shard) and one
 * layer in flight. All 0 on one replica (optimizer_held_mib too). */
struct replica_shift {
    double line_mib, floor_mib;
    double buckets_mib, root_mib, root_grads_mib, layer_mib;
    double optimizer_held_mib; /* the optimizer state the largest replica keeps */
};

struct calc_plan {
    const struct group_fit *fit;
    struct replica_shift shift;
    int training;           /* 0: no accumulation, no effective batch */
    long seq_len;
    double usable_mib, per_sample_mib;
    long max_micro_batch;   /* 0 when not even b = 1 fits */
    long micro_batch, accum, effective_batch;
    /* F per replica: unsharded, and on G replicas (the line's F moved by
     * shift.line_mib) */
    double fixed_mib, fixed_per_replica_mib;
    long max_micro_batch_estimate; /* the largest whose estimate (not its interval) fits */
    double predicted_mib, predicted_ci95_mib, activation_mib;
    enum plan_outcome outcome;
    int fits;               /* outcome == PLAN_FITS */
    int extrapolated;
    int linear_seq_len_beyond; /* seq_len past the measured ones with no b*s^2 term fitted */
    int far_extrapolated;   /* b or seq_len over CALC_FAR_FACTOR times the largest measured */
    int past_tokens;        /* b * seq_len over CALC_EXTRAPOLATION_FACTOR times the largest T measured */
    int floor_binds;        /* the floor sets the predicted peak */
    /* the fit was measured on another machine (reports/hardware_here.h):
     * its interval adds RSS's spread between machines; why says which */
    int other_machine;
    char other_machine_why[400];
    /* whose process the plan is for (reports/process_term.h): the term its
     * figure and interval add, the words its first line says, and the term
     * at the plan's micro-batch */
    const struct process_term *process;
    const char *process_words;
    double process_term_mib, process_worker_mib; /* the term, and the worker's peak above its baseline it is at */
    struct calibration calibration; /* --process command: the term is its (process points there) */
};
enum { CALC_FAR_FACTOR = 4, CALC_EXTRAPOLATION_FACTOR = 2 };

/* The shift of one replica of req (--replicas, --zero) from the fit g.
 * Returns 0, or -1 with err set (--zero 3 without a config to size FSDP's
 * units from). */
int replica_shift_make(const struct calc_request *req, const struct group_fit *g, struct replica_shift *s,
                       char *err, size_t errlen);
/* What the shift moves the predicted peak by at (b, seq_len): the larger of
 * the shifted line and floor, less the larger of the two unshifted. */
double replica_shift_at(const struct replica_shift *s, const struct group_fit *g, double b, double seq_len);

/* The fit a plan for key uses: METRIC_RESERVED where the group was
 * measured on a GPU (the device runs out first: its context plus what the
 * caching allocator reserves), else METRIC_RSS (the whole process). */
enum metric calc_metric(const struct fit_set *set, const struct group_key *key);
/* Returns 0, or -1 with err set. */
int calc_plan_make(const struct fit_set *set, const struct calc_request *req, struct calc_plan *plan,
                   char *err, unsigned long errlen);
/* The largest micro-batch that fits (max_b), unless a slightly smaller one
 * (down to half) makes b * a * g hit the target exactly; never more than
 * the target needs. 1 when nothing fits, so the plan shows as not fitting. */
long calc_choose_micro_batch(long max_b, long target, long replicas);
/* The accumulation steps a of a plan with micro-batch b on g replicas:
 * --accum where given, else the fewest that reach the target E (a given
 * --micro-batch with --target-batch too), else 1. */
long calc_accum_steps(long micro_batch, long replicas, long target, long accum);
/* What a measured plan and a standalone one both say, as two tables of
 * JSON members (calc_print.c) that both objects are written with, so they
 * name them alike. The batch: A_sample, b, M = b * A_sample and, where the
 * plan trains, a, g and E = b * a * g. */
struct plan_batch {
    double per_sample_mib, activation_mib;
    long micro_batch, accum, replicas, effective_batch;
    int training;
};
/* Adds to o: per_sample_mib, micro_batch, activation_mib; training:
 * accum_steps, replicas, effective_batch. */
void plan_batch_json(json_t *o, const struct plan_batch *b);
/* The verdict against a budget (a standalone plan's with --fixed). */
struct plan_verdict {
    double fixed_mib, usable_mib, predicted_mib;
    long max_micro_batch;
    enum plan_outcome outcome;
};
/* Adds to o: budget_mib, margin, usable_mib, fixed_mib, max_micro_batch,
 * fits, outcome, predicted_peak_mib. */
void plan_verdict_json(json_t *o, const struct calc_request *req, const struct plan_verdict *v);
/* The plan as one JSON object (to json_decref), as `calc --json` prints it. */
json_t *calc_plan_json(const struct calc_request *req, const struct calc_plan *plan);
/* The plan in a few lines on stdout, as `calc` prints it. */
void calc_plan_print(const struct calc_request *req, const struct calc_plan *plan);

/* calc's option table (calc_options.c): its parser, --help and synopsis. */
extern const struct opt_table calc_options;
/* Fills the request from calc's command line; 0 with *dir (NULL for a
 * plan without measurements), or -1 with what is wrong in why. */
int calc_parse_args(int argc, char **argv, struct calc_request *r, const char **dir, char *why, size_t size);
/* A plan without measurements (--per-sample or --per-token, no DIR)? */
int calc_request_standalone(const struct calc_request *r);
#endif
