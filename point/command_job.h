/* command_job.h: a command job's point as a process to run: its argv
 * (sweeps/command_template.h, filled in with the point's settings), the
 * program it execs (found on PATH as a shell would, but run with execv:
 * no shell). runner/grid_load.c checks with it, before anything is
 * created, that every job's program is there and executable. */
#ifndef PEAKFIT_COMMAND_JOB_H
#define PEAKFIT_COMMAND_JOB_H
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include "point/point.h"
#include "sweeps/command_template.h"

/* docs/own-script.md's "| placeholder | value |" table: each setting's
 * (its sweep key's help, the setting's one text) and the grid's
 * (sweeps/command_template.h). */
void command_placeholders_markdown(FILE *out);

/* Is the point a command job's? */
int command_job_is(const struct grid_point *p);

/* The argv of point p (threads: the intra-op threads it gets) and in path
 * the program to exec. 0, or -1 with the reason in err. */
int command_job_argv(const struct grid_point *p, int threads, struct command_argv *argv, char path[PATH_MAX],
                     char *err, size_t errlen);

#endif
