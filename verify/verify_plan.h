/* verify_plan.h: `peakfit verify`'s work, its argv parsed: the plan made,
 * run for real at its b and b + 1, and judged (verify_plan.c). */
#ifndef PEAKFIT_VERIFY_PLAN_H
#define PEAKFIT_VERIFY_PLAN_H
#include "fit/fit_set.h"
#include "reports/calc.h"

/* Plans req from set (DIR's fit), runs the plan's batches under the
 * budget's limit into a directory of DIR's and prints the verdict; its
 * exit status. */
int verify_plan(const char *dir, const struct fit_set *set, const struct calc_request *req);
#endif
