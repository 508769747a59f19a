/* grid_cmd.h: `peakfit grid SWEEP`. */
#ifndef PEAKFIT_GRID_CMD_H
#define PEAKFIT_GRID_CMD_H
#include "runner/grid.h"

/* Checks a sweep and lists its points' ids on stdout, running none.
 * Exit status as util/exit_status.h: 0, 2 for a bad sweep, 1 when the
 * grid cannot be built (out of memory). */
int grid_main(int argc, char **argv);

/* A sweep loaded and expanded as grid and run both need it, with what is
 * wrong said on stderr. Returns the sweep (free() it after grid_free(g)),
 * or NULL with the exit status in *status. */
struct sweep *grid_cmd_load(const char *sweep_path, struct grid *g, int *status);
#endif
