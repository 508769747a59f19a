/* pool.h: runs a grid's points N workers at a time, each a fresh process:
 * on CPU each pinned to its own share of the cores (affinity, and its
 * intra-op threads set to that share), on CUDA each on a GPU of its own
 * (proc/gpu_slots.h); a point starts only when the
 * machine's free memory would hold its predicted peak (point/predict.h),
 * and one predicted to exceed the machine runs alone. With N = 1 a point
 * runs exactly as it always has: no pinning, the sweep's threads. */
#ifndef PEAKFIT_POOL_H
#define PEAKFIT_POOL_H
#include "point/grid.h"
#include "protocol/point_result.h"

/* Called once per finished point, in the order they finish (never for one
 * stopped by an interrupt); a nonzero return (an exit status) stops the
 * pool, killing the workers still running. */
typedef int (*pool_record_fn)(void *ctx, int index, const struct point_result *r);

/* Runs every point whose done[] is 0. Returns EXIT_DONE, EXIT_INTERRUPTED
 * (SIGINT, SIGTERM, SIGHUP: the points in flight are killed, not recorded),
 * EXIT_IO (a worker could not be started) or record's status. */
int pool_run(const struct sweep *s, const struct grid *g, const unsigned char *done, int jobs, pool_record_fn record,
             void *ctx);
#endif
