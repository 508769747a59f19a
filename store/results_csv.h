/* results_csv.h: DIR/peaks.csv, one row per finished grid point; its
 * columns are settings/peaks_columns.h's. */
#ifndef PEAKFIT_RESULTS_CSV_H
#define PEAKFIT_RESULTS_CSV_H
#include <stddef.h>
#include "point/grid.h"
#include "protocol/point_result.h"
#include "store/results_resume.h"
#include "settings/peaks_columns.h"

/* The header line, without its end of line. */
const char *results_header(void);

/* Opens (creating with a header) the peaks.csv at path for appending, and
 * sets done[i] (g->n of them) for each grid point whose row is already
 * there and stands: a point is measured again when its last row is a
 * timeout under a shorter timeout, or a watchdog oom under a lower (or no)
 * memory limit than the sweep's now. A truncated last row is cut off and
 * reported on stderr, two rows of one point that both stand are reported
 * (the later is used). Returns an fd, or RESULTS_IO_ERROR, or
 * RESULTS_BAD_INPUT with "PATH..." in err: a peaks.csv that is no regular
 * file; another version's header; a broken row; a row measured under other
 * settings (model source, config hash, steps, seed, threads, weights,
 * LoRA) than the sweep's; rows of points the sweep does not define. */
int results_open(const char *path, const struct grid *g, unsigned char *done, char *err, size_t errlen);

/* The text of column c in point p's row, as results_append writes it
 * (numbers are formatted into num); r NULL: only the point's own columns
 * (those the sweep sets), the others are "". */
typedef char results_number[64];
const char *results_column_text(enum peaks_column c, const struct grid_point *p, const struct point_result *r,
                                results_number num);

/* Writes the point's row with one write() and fsyncs it: a row is either
 * in the file whole or not at all. Returns 0 or -1 (errno set). */
int results_append(int fd, const struct grid_point *p, const struct point_result *r);
#endif
