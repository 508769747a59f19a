/* grid_load.h: a sweep loaded and expanded for the commands that run or
 * list its points (`peakfit run`, `grid`, `slurm`). */
#ifndef PEAKFIT_GRID_LOAD_H
#define PEAKFIT_GRID_LOAD_H
#include "point/grid.h"

/* A sweep loaded and expanded as grid and run both need it, with what is
 * wrong said on stderr. Returns the sweep (sweep_free() it after grid_free(g)),
 * or NULL with the exit status in *status. */
struct sweep *grid_load(const char *sweep_path, struct grid *g, int *status);
#endif
