/* grid_cmd.h: a sweep loaded for `peakfit grid` and `peakfit run`. */
#ifndef PEAKFIT_GRID_CMD_H
#define PEAKFIT_GRID_CMD_H
#include "point/grid.h"

/* A sweep loaded and expanded as grid and run both need it, with what is
 * wrong said on stderr. Returns the sweep (free() it after grid_free(g)),
 * or NULL with the exit status in *status. */
struct sweep *grid_cmd_load(const char *sweep_path, struct grid *g, int *status);
#endif
