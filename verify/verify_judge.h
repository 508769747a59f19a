/* verify_judge.h: the verdict on a plan from verify's runs (verify_judge.c). */
#ifndef PEAKFIT_VERIFY_JUDGE_H
#define PEAKFIT_VERIFY_JUDGE_H
#include "reports/calc.h"

/* Reads vdir/peaks.csv (the runs at the plan's b and b + 1, measured under
 * limit_mib above the baseline), prints each run and the verdict; its exit
 * status: EXIT_DONE when the boundary held, EXIT_BOUNDARY_MISSED,
 * EXIT_NO_VERDICT, or EXIT_IO. */
int verify_judge(const char *vdir, const struct calc_plan *p, double limit_mib);
#endif
