/* results_csv.h: DIR/peaks.csv, one row per finished grid point. */
#ifndef PEAKFIT_RESULTS_CSV_H
#define PEAKFIT_RESULTS_CSV_H
#include <stddef.h>
#include "runner/grid.h"
#include "runner/point_result.h"

/* The header line, without its end of line. */
const char *results_header(void);

/* Opens (creating with a header) DIR's peaks.csv for appending. Point ids
 * already in it are returned in *done (n_done of them, to free with
 * results_free_done) so the run can skip them. A truncated last row is
 * cut off and reported on stderr; any other broken row, or a header from
 * another version, is an error. Returns an fd, or -1 with err set. */
int results_open(const char *path, char ***done, int *n_done, char *err, size_t errlen);
void results_free_done(char **done, int n_done);

/* Writes the point's row with one write() and fsyncs it: a row is either
 * in the file whole or not at all. Returns 0 or -1 (errno set). */
int results_append(int fd, const struct grid_point *p, const struct point_result *r);
#endif
