/* spawn.h: runs one worker in a fresh process and waits for it. */
#ifndef PEAKFIT_SPAWN_H
#define PEAKFIT_SPAWN_H
#include <signal.h>
#include "runner/point_result.h"

/* Set by the runner's SIGINT/SIGTERM handler; spawn_worker then kills the
 * worker and returns SPAWN_INTERRUPTED. */
extern volatile sig_atomic_t spawn_stop_requested;

enum { SPAWN_DONE = 0, SPAWN_INTERRUPTED = 1, SPAWN_FAILED = -1 };

/* fork + exec of argv (argv[0] a path), the worker's report read from a
 * pipe it gets as fd 3. The worker is killed after timeout_s, or as soon as
 * its RSS rises more than mem_limit bytes above its reported baseline
 * (0: no limit), which is recorded as oom. Fills r with the report, the
 * exit status and a status word. */
#include <stdint.h>
int spawn_worker(char *const argv[], double timeout_s, int64_t mem_limit, struct point_result *r);
#endif
