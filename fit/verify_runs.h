/* verify_runs.h: the runs `peakfit verify` made in a results directory
 * (DIR/verify-NAME/peaks.csv) count as held-out points of their groups: not
 * fitted, but predicted, so that fit.json, the report's held-out table and
 * the peak chart show how the prediction fared where the plan was tested. */
#ifndef PEAKFIT_VERIFY_RUNS_H
#define PEAKFIT_VERIFY_RUNS_H
#include "fit/observations.h"

/* Appends the ok rows of every DIR/verify-NAME/peaks.csv to obs->ok, marked
 * holdout. Returns 0, or -1 with the reason in err (a verify directory's
 * peaks.csv that cannot be read is skipped with a word on stderr). */
int verify_runs_add(const char *dir, struct observations *obs, char *err, unsigned long errlen);
#endif
