/* verify_sweep.h: the sweep verify writes for a plan (verify_sweep.c). */
#ifndef PEAKFIT_VERIFY_SWEEP_H
#define PEAKFIT_VERIFY_SWEEP_H
#include "settings/group_key.h"
#include "reports/calc.h"
#include "settings/peaks_columns.h"
#include "util/csv_table.h"

/* The fields of the group's first ok row of t (DIR/peaks.csv, by column):
 * how its points were measured. 0, or -1 when no row of this version
 * holds the group. */
int verify_group_row(const struct csv_table *t, const struct group_key *key, const char *f[PEAKS_N_COLUMNS]);
/* EXIT_DONE when the config the group's row f was measured on (path: the
 * peaks.csv it came from) is the one at its source now; EXIT_BAD_INPUT
 * after saying why not. */
int verify_same_config(const char *path, const char *const *f);
/* Writes the plan's sweep to path from the group's row f, under
 * limit_mib above the baseline; EXIT_DONE, or an exit status after saying
 * why. */
int verify_write_sweep(const char *path, const char *const *f, const struct calc_plan *p, double limit_mib);
#endif
