/* device_check.h: may this libtorch run a sweep's devices? grid and run ask
 * before building the grid (runner/grid_load.c); the grid itself is pure
 * expansion and never asks peakfit-worker. */
#ifndef PEAKFIT_DEVICE_CHECK_H
#define PEAKFIT_DEVICE_CHECK_H
#include <stddef.h>
#include "sweeps/sweep.h"

/* FILE:LINE: "device cuda is not available in this build of libtorch ...",
 * for the first device of the sweep that this libtorch cannot use. A
 * command job's devices are its own business. Returns 0, or -1 with the
 * message in err. */
int device_check_sweep(const struct sweep *sweep, char *err, size_t errlen);
#endif
