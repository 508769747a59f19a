/* calc.h: `peakfit calc DIR --budget SIZE ...`: from the fit, the largest
 * micro-batch that fits a memory budget, and the gradient-accumulation
 * steps for a target effective batch E = b * a * g. */
#ifndef PEAKFIT_CALC_H
#define PEAKFIT_CALC_H
#include <jansson.h>
#include "fit/fit_set.h"

struct calc_request {
    const char *model;      /* NULL: the directory's only model (exact value or display name) */
    const char *device;     /* NULL: the only device measured for that model and technique */
    const char *attention;  /* NULL: the only attention measured for them */
    const char *technique;
    double budget_mib;      /* the whole process, baseline included */
    double margin;          /* fraction of the budget kept free */
    long seq_len;           /* 0: the largest measured */
    long target_batch;      /* 0: one micro-batch per replica */
    long replicas;
    long micro_batch, accum; /* > 0: evaluate this plan instead */
    int json;
};

struct calc_plan {
    const struct group_fit *fit;
    int training;           /* 0: no accumulation, no effective batch */
    long seq_len;
    double usable_mib, per_sample_mib;
    long max_micro_batch;   /* 0 when not even b = 1 fits */
    long micro_batch, accum, effective_batch;
    double predicted_mib, predicted_ci95_mib, activation_mib;
    int fits, extrapolated;
};

/* The fit a plan for key uses: METRIC_RESERVED where the group was
 * measured on a GPU (the device runs out first: its context plus what the
 * caching allocator reserves), else METRIC_RSS (the whole process). */
enum metric calc_metric(const struct fit_set *set, const struct group_key *key);
/* Returns 0, or -1 with err set. */
int calc_plan_make(const struct fit_set *set, const struct calc_request *req, struct calc_plan *plan,
                   char *err, unsigned long errlen);
/* The plan as one JSON object (to json_decref), as `calc --json` prints it. */
json_t *calc_plan_json(const struct calc_request *req, const struct calc_plan *plan);
int calc_main(int argc, char **argv);
#endif
