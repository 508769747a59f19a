/* grid_cmd.h: `peakfit grid SWEEP`. */
#ifndef PEAKFIT_GRID_CMD_H
#define PEAKFIT_GRID_CMD_H

/* Checks a sweep and lists its points' ids on stdout, running none.
 * Exit status as util/exit_status.h: 0, 2 for a bad sweep, 1 when the
 * grid cannot be built (out of memory). */
int grid_main(int argc, char **argv);
#endif
