/* spawned.h: a worker process in flight and how it is started and judged,
 * shared by spawn.c (start, read, reap) and watchdog.c (time and memory). */
#ifndef PEAKFIT_SPAWNED_H
#define PEAKFIT_SPAWNED_H
#include <stdint.h>
#include <sys/types.h>
#include "proc/command_watch.h"
#include "proc/cores.h"
#include "protocol/point_result.h"

/* How a worker is started and judged. */
struct spawn_options {
    double timeout_s;
    int64_t mem_limit;      /* bytes above its reported baseline; 0: none */
    const struct proc_cores *cpus; /* the cores it may run on; NULL: the runner's */
    char *const *env;       /* NAME=VALUE strings set in the worker, NULL-ended; NULL: none */
    const char *path;       /* the program to exec; NULL: argv[0] */
    struct command_watch *watch; /* a command job's (proc/command_watch.h); NULL: peakfit-worker */
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
#endif
