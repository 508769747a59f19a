/* results_resume.h: an existing peaks.csv's rows matched to the sweep's
 * grid points, so that a resumed run skips what is measured and never
 * mixes rows measured under other settings, or of another sweep, in. */
#ifndef PEAKFIT_RESULTS_RESUME_H
#define PEAKFIT_RESULTS_RESUME_H
#include <stddef.h>
#include "point/grid.h"
#include "util/csv_table.h"

/* results_open's and results_match's failures: the caller exits 1 or 2
 * (util/exit_status.h). */
enum { RESULTS_IO_ERROR = -1, RESULTS_BAD_INPUT = -2 };

/* Sets done[i] for each point of g whose last row in t stands (see
 * results_open). Returns 0, or RESULTS_BAD_INPUT / RESULTS_IO_ERROR (out
 * of memory) with "PATH..." in err. */
int results_match(const char *path, const struct csv_table *t, const struct grid *g, unsigned char *done,
                  char *err, size_t errlen);
#endif
