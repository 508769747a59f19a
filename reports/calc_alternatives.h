/* calc_alternatives.h: where a training plan fits not even micro-batch 1,
 * what would, from the same directory: each other technique fitted for
 * the same model (LoRA where full training is too big), and the requested
 * technique under ZeRO-3 (FSDP2) over the fewest replicas, a power of two
 * up to CALC_ALTERNATIVE_REPLICAS_MAX, whose largest rank holds b = 1
 * within its interval. Each is a plan of its own (reports/calc.h). */
#ifndef PEAKFIT_CALC_ALTERNATIVES_H
#define PEAKFIT_CALC_ALTERNATIVES_H
#include "reports/calc.h"

enum { CALC_ALTERNATIVES_MAX = 8, CALC_ALTERNATIVE_REPLICAS_MAX = 1024 };

/* One alternative: what calc with these options plans. */
struct calc_alternative {
    char technique[64];
    long replicas, zero;        /* 1, 0: one process as measured */
    long micro_batch;           /* the largest that fits within its interval */
    double predicted_mib, ci95_mib;
};

/* Prints under plan p of req what would fit ("what would fit in ..."), or
 * that nothing does; nothing where p trains nothing or fits b = 1. */
void calc_alternatives_print(const struct fit_set *set, const struct calc_request *req, const struct calc_plan *p);
#endif
