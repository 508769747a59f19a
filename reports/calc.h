/* calc.h: `peakfit calc DIR --budget SIZE ...`: from the fit, the largest
 * micro-batch that fits a memory budget, and the gradient-accumulation
 * steps for a target effective batch E = b * a * g. */
#ifndef PEAKFIT_CALC_H
#define PEAKFIT_CALC_H
#include "fit/fit_set.h"

struct calc_request {
    const char *model;      /* NULL: the directory's only model */
    const char *technique;
    double budget_mib;      /* the whole process, baseline included */
    double margin;          /* fraction of the budget kept free */
    int seq_len;            /* 0: the largest measured */
    long target_batch;      /* 0: one micro-batch per replica */
    int replicas;
    int micro_batch, accum; /* > 0: evaluate this plan instead */
};

struct calc_plan {
    const struct group_fit *fit;
    int seq_len;
    double usable_mib, per_sample_mib;
    long max_micro_batch;   /* 0 when not even b = 1 fits */
    long micro_batch, accum, effective_batch;
    double predicted_mib, predicted_ci95_mib, activation_mib;
    int fits, extrapolated;
};

/* Returns 0, or -1 with err set. */
int calc_plan_make(const struct fit_set *set, const struct calc_request *req, struct calc_plan *plan,
                   char *err, unsigned long errlen);
int calc_main(int argc, char **argv);
#endif
