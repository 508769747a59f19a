/* grid_load.h: a sweep loaded and expanded for the commands that run or
 * list its points (`peakfit run`, `grid`, `slurm`). */
#ifndef PEAKFIT_GRID_LOAD_H
#define PEAKFIT_GRID_LOAD_H
#include "point/grid.h"

/* A sweep loaded and expanded as grid and run both need it, with what is
 * wrong said on stderr. Returns the sweep (sweep_free() it after grid_free(g)),
 * or NULL with the exit status in *status. */
struct sweep *grid_load(const char *sweep_path, struct grid *g, int *status);
/* No row of DIR's peaks.csv (of any version) measured a model of the
 * sweep at its path while that file held another config (its config_hash
 * differs): a fit from them is another model's. EXIT_DONE (also without a
 * peaks.csv), or EXIT_BAD_INPUT after naming the first on stderr. */
int grid_load_check_configs(const char *dir, const struct grid *g);
#endif
