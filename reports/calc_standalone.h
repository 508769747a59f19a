/* calc_standalone.h: `peakfit calc --per-sample SIZE ...` without any
 * measurements, as the seed's calculator: E = b * a * g and M = b * A_sample,
 * and with --fixed F and --budget the largest b with F + b * A_sample within
 * the budget. The user's numbers have no interval, so a plan fits or not. */
#ifndef PEAKFIT_CALC_STANDALONE_H
#define PEAKFIT_CALC_STANDALONE_H
#include <jansson.h>
#include "reports/calc.h"

struct standalone_plan {
    double per_sample_mib;  /* --per-sample, or --per-token x --seq-len */
    long micro_batch, accum, replicas, effective_batch;
    double activation_mib;  /* M = b * A_sample */
    int judged;             /* --fixed and --budget given */
    double usable_mib, predicted_mib;
    long max_micro_batch;   /* with judged: the largest b that fits, 0 if none */
    enum plan_outcome outcome;
};

/* Returns 0, or -1 with err naming the option that is missing. */
int standalone_plan_make(const struct calc_request *req, struct standalone_plan *p, char *err, unsigned long errlen);
json_t *standalone_plan_json(const struct calc_request *req, const struct standalone_plan *p);
void standalone_plan_print(const struct calc_request *req, const struct standalone_plan *p);
#endif
