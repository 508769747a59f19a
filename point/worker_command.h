/* worker_command.h: the argv of peakfit-worker for one grid point, and
 * where peakfit-worker is: beside peakfit. It is the one binary that loads
 * libtorch; peakfit itself stays light for every other command. */
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

#define WORKER_BINARY "peakfit-worker"

/* worker: peakfit-worker's path; threads: the intra-op threads to ask for
 * (the job's, or a parallel run's share of the cores). */
void worker_command_build(struct worker_command *c, const char *worker, const struct grid_point *p, int threads);

/* This binary, to exec as each worker. A result that fills the buffer may
 * have been cut: refused rather than exec'ing a shorter path. 0, or -1
 * after saying why. */
int worker_command_self(char *out, size_t size);
/* peakfit-worker: $PEAKFIT_WORKER when set (a worker installed elsewhere,
 * or the tests' build), else the one beside this binary; 0, or -1 after
 * saying why. */
int worker_command_path(char *out, size_t size);
/* Can peakfit-worker be run? 0, or -1 after saying why. */
int worker_command_check(void);
/* `peakfit worker ARGS`: becomes peakfit-worker ARGS (argv[0], "worker",
 * is replaced by its path). Returns only when it cannot: EXIT_IO. */
int worker_command_exec(int argc, char **argv);
#endif
