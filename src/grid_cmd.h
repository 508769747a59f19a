/* grid_cmd.h: `peakfit grid SWEEP [--peaks] [-o DIR]`. */
#ifndef PEAKFIT_GRID_CMD_H
#define PEAKFIT_GRID_CMD_H

/* Checks a sweep and lists its points' ids on stdout, running none; on
 * stderr, with --peaks or -o DIR, each point's expected peak and the
 * sweep's largest and total.
 * Exit status as util/exit_status.h: 0, 2 for a bad sweep or option, 1
 * when the grid cannot be built (out of memory). */
int grid_main(int argc, char **argv);

struct opt_table;
/* grid's options: the parser's table, its --help and synopsis. */
extern const struct opt_table grid_options;
#endif
