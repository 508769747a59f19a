/* worker_command.h: the argv of peakfit-worker for one grid point (where
 * peakfit-worker is: proc/worker_binary.h). */
#ifndef PEAKFIT_WORKER_COMMAND_H
#define PEAKFIT_WORKER_COMMAND_H
#include <stddef.h>
#include "point/grid.h"

/* Strings point into the grid (never copied, so never cut); numbers and
 * the LoRA list are written into text. */
struct worker_command {
    char *argv[48]; /* every flag with its value, and the NULL */
    char flags[23][32]; /* "--" and each sweep key's flag */
    char text[23][64];
    int argc, n_text, n_flags;
};

/* worker: peakfit-worker's path; threads: the intra-op threads to ask for
 * (the job's, or a parallel run's share of the cores). */
void worker_command_build(struct worker_command *c, const char *worker, const struct grid_point *p, int threads);

#endif
