/* run_sweep.h: running a sweep, as `peakfit run SWEEP -o DIR [-j N] [--point K
 * [--chunk C]]` (src/run_cmd.c) and `all` do. */
#ifndef PEAKFIT_RUN_SWEEP_H
#define PEAKFIT_RUN_SWEEP_H
#include <stddef.h>
#include "sweeps/limits.h"
#include "util/options.h"

enum { RUN_JOBS_MAX = LIMIT_JOBS_MAX };

struct run_options {
    const char *sweep, *dir;
    int jobs;    /* workers at once (-j); 0: the sweep's `jobs` */
    long point;  /* --point K: only this task's points; -1: every point */
    int chunk;   /* --chunk C: points per task (K*C .. K*C+C-1) */
    int chunk_given; /* 1: --chunk was given (it goes with --point) */
    long sweep_points; /* --sweep-points N: the grid the Slurm array was written for; 0: any */
};

/* run's (and all's) options: the parser's table, its --help and synopsis. */
extern const struct opt_table run_options_table;
/* Every option at its default (its row's; --point: every point); 0, or -1
 * with why for a default its row cannot read (options_test checks none is). */
int run_options_defaults(struct run_options *o, char *why, size_t size);
/* Reads "SWEEP -o|--output DIR [-j N] [--point K] [--chunk C]"; 0, or -1
 * with what is wrong in why. */
int run_sweep_args(int argc, char **argv, struct run_options *o, char *why, size_t size);
/* run_sweep_args, and on bad input its message (named after argv[0], the
 * command) and the synopsis on stderr; 0 or EXIT_BAD_INPUT. */
int run_sweep_args_or_say(int argc, char **argv, struct run_options *o);
/* The run those options describe. Exit status (util/exit_status.h): 0
 * when every point has a row, 2 for bad input, 1 when the results cannot
 * be written (or no point measured this time succeeded), 130 when
 * interrupted (SIGINT, SIGTERM, SIGHUP). */
int run_sweep_with(const struct run_options *o);
/* Every point of a sweep, as many at once as its `jobs` key says. */
int run_sweep(const char *sweep_path, const char *out_dir);
#endif
