/* worker.h: `peakfit worker`, the process that measures one grid point. */
#ifndef PEAKFIT_WORKER_H
#define PEAKFIT_WORKER_H

/* Returns the process exit status (WORKER_EXIT_*). */
int worker_main(int argc, char **argv);
#endif
