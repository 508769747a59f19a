/* device_check.h: may this libtorch run a sweep's devices and optimizers?
 * grid and run ask before building the grid (runner/grid_load.c); the grid itself is pure
 * expansion and never asks peakfit-worker. */
#ifndef PEAKFIT_DEVICE_CHECK_H
#define PEAKFIT_DEVICE_CHECK_H
#include <stddef.h>
#include "sweeps/sweep.h"

/* FILE:LINE: "device cuda is not available in this build of libtorch ...",
 * for the first device of the sweep that this libtorch cannot use. A
 * command job's devices are its own business. Likewise FILE:LINE: "job
 * NAME: optimizer adamw-fused: libtorch 1.13.0 has no _fused_adamw_ for
 * cpu (...)" for a job whose optimizer this libtorch cannot run there
 * (LINE: the job's header). Returns 0, or -1 with the message in err. */
int device_check_sweep(const struct sweep *sweep, char *err, size_t errlen);
#endif
