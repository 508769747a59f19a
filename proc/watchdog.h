/* watchdog.h: spawn.c's judgement of a worker it watches (watchdog.c). */
#ifndef PEAKFIT_WATCHDOG_H
#define PEAKFIT_WATCHDOG_H
#include "proc/spawned.h"

/* How often spawn looks at a running worker. */
enum { SPAWN_POLL_MS = 20 };

/* Has the worker had its time? Time in which the runner did not run is
 * added to its deadline. */
int watchdog_past_deadline(struct spawned *s);
/* Is its RSS over its baseline past the limit (sampled at each look)? */
int watchdog_over_limit(struct spawned *s);
/* A command job's whole tree, sampled: past the limit? */
int watchdog_command_over_limit(struct spawned *s);
#endif
