/* worker_binary.h: where peakfit-worker is: beside peakfit. It is the one
 * binary that loads libtorch; peakfit itself stays light for every other
 * command. */
#ifndef PEAKFIT_WORKER_BINARY_H
#define PEAKFIT_WORKER_BINARY_H
#include <stddef.h>

#define WORKER_BINARY "peakfit-worker"

/* This binary, to exec as each worker. A result that fills the buffer may
 * have been cut: refused rather than exec'ing a shorter path. 0, or -1
 * after saying why. */
int worker_binary_self(char *out, size_t size);
/* peakfit-worker: $PEAKFIT_WORKER when set (a worker installed elsewhere,
 * or the tests' build), else the one beside this binary; 0, or -1 after
 * saying why. */
int worker_binary_path(char *out, size_t size);
/* Can peakfit-worker be run? 0, or -1 after saying why. */
int worker_binary_check(void);
/* `peakfit worker ARGS`: becomes peakfit-worker ARGS (argv[0], "worker",
 * is replaced by its path). Returns only when it cannot: EXIT_IO. */
int worker_binary_exec(int argc, char **argv);
#endif
