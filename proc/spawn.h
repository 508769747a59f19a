/* spawn.h: runs worker processes, each fresh (fork + exec), and watches
 * them: one at a time (spawn_worker) or several at once (spawn_start,
 * spawn_check, spawn_wait_any). */
#ifndef PEAKFIT_SPAWN_H
#define PEAKFIT_SPAWN_H
#include <signal.h>
#include <stdint.h>
#include "proc/spawned.h"

/* Set by the runner's SIGINT/SIGTERM handler; a watched worker is then
 * killed and SPAWN_INTERRUPTED returned. */
extern volatile sig_atomic_t spawn_stop_requested;

enum { SPAWN_DONE = 0, SPAWN_INTERRUPTED = 1, SPAWN_RUNNING = 2, SPAWN_FAILED = -1 };

/* fork + exec of argv (argv[0] a path), the worker's report read from a
 * pipe it gets as fd 3, into r. SPAWN_RUNNING, or SPAWN_FAILED (errno). */
int spawn_start(char *const argv[], const struct spawn_options *o, struct spawned *s, struct point_result *r);

/* Looks at a started worker once, without waiting: reads what it reported,
 * and kills it past its timeout, over its memory limit, or on a stop
 * request. SPAWN_RUNNING; SPAWN_DONE when it has ended and r holds its
 * exit status and a status word (ok, oom, killed, timeout, crashed, error);
 * SPAWN_INTERRUPTED when a stop was requested (r is then not a result). */
int spawn_check(struct spawned *s);

/* Sleeps until one of the n workers reports something, or 20 ms; n is at
 * most LIMIT_JOBS_MAX (sweeps/limits.h), the pool's slots. */
void spawn_wait_any(struct spawned *const *s, int n);

/* The RSS of a running worker above its reported baseline, in MiB (0 when
 * not known yet). */
double spawn_rss_above_baseline_mib(const struct spawned *s);

/* One worker from start to end: spawn_start, then spawn_check until it is
 * not running. SPAWN_DONE, SPAWN_INTERRUPTED or SPAWN_FAILED. */
int spawn_worker(char *const argv[], double timeout_s, int64_t mem_limit, struct point_result *r);
#endif
