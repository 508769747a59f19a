/* spawn.h: runs worker processes, each fresh (fork + exec), and watches
 * them: one at a time (spawn_worker) or several at once (spawn_start,
 * spawn_check, spawn_wait_any). */
#ifndef PEAKFIT_SPAWN_H
#define PEAKFIT_SPAWN_H
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "runner/command_watch.h"
#include "runner/point_result.h"

/* Set by the runner's SIGINT/SIGTERM handler; a watched worker is then
 * killed and SPAWN_INTERRUPTED returned. */
extern volatile sig_atomic_t spawn_stop_requested;

enum { SPAWN_DONE = 0, SPAWN_INTERRUPTED = 1, SPAWN_RUNNING = 2, SPAWN_FAILED = -1 };

/* How a worker is started and judged. */
struct spawn_options {
    double timeout_s;
    int64_t mem_limit;      /* bytes above its reported baseline; 0: none */
    const cpu_set_t *cpus;  /* the cores it may run on; NULL: the runner's */
    char *const *env;       /* NAME=VALUE strings set in the worker, NULL-ended; NULL: none */
    const char *path;       /* the program to exec; NULL: argv[0] */
    struct command_watch *watch; /* a command job's (runner/command_watch.h); NULL: peakfit-worker */
};

/* One worker in flight. The fields are spawn.c's. */
struct spawned {
    pid_t pid;
    int fd;                 /* its report pipe; -1 once read to the end */
    int end;                /* how its report ended (spawn.c's enum report_end); -1: not yet */
    double start, deadline, last_look;
    int64_t mem_limit;
    double seen_rss_mib;    /* the largest RSS the watchdog read */
    struct point_result *r;
    struct command_watch *watch;
    char buf[8192];         /* a report line being read */
    size_t used;
};

/* fork + exec of argv (argv[0] a path), the worker's report read from a
 * pipe it gets as fd 3, into r. SPAWN_RUNNING, or SPAWN_FAILED (errno). */
int spawn_start(char *const argv[], const struct spawn_options *o, struct spawned *s, struct point_result *r);

/* Looks at a started worker once, without waiting: reads what it reported,
 * and kills it past its timeout, over its memory limit, or on a stop
 * request. SPAWN_RUNNING; SPAWN_DONE when it has ended and r holds its
 * exit status and a status word (ok, oom, killed, timeout, crashed, error);
 * SPAWN_INTERRUPTED when a stop was requested (r is then not a result). */
int spawn_check(struct spawned *s);

/* Sleeps until one of the n workers reports something, or 20 ms. */
void spawn_wait_any(struct spawned *const *s, int n);

/* The RSS of a running worker above its reported baseline, in MiB (0 when
 * not known yet). */
double spawn_rss_above_baseline_mib(const struct spawned *s);

/* One worker from start to end: spawn_start, then spawn_check until it is
 * not running. SPAWN_DONE, SPAWN_INTERRUPTED or SPAWN_FAILED. */
int spawn_worker(char *const argv[], double timeout_s, int64_t mem_limit, struct point_result *r);
#endif
