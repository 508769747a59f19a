/* worker_command.h: the argv of `peakfit worker` for one grid point. */
#ifndef PEAKFIT_WORKER_COMMAND_H
#define PEAKFIT_WORKER_COMMAND_H
#include <stddef.h>
#include "runner/grid.h"

/* Strings point into the grid (never copied, so never cut); numbers and
 * the LoRA list are written into text. */
struct worker_command {
    char *argv[48]; /* every flag with its value, and the NULL */
    char text[16][64];
    int argc, n_text;
};

/* self: this binary's path; threads: the intra-op threads to ask for (the
 * job's, or a parallel run's share of the cores). */
void worker_command_build(struct worker_command *c, const char *self, const struct grid_point *p, int threads);

/* This binary, to exec as each worker. A result that fills the buffer may
 * have been cut: refused rather than exec'ing a shorter path. 0, or -1
 * after saying why. */
int worker_command_self(char *out, size_t size);
#endif
