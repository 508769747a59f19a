/* worker_options.h: peakfit-worker's options, a table for the option engine
 * (util/options.h) made from the sweep keys that have a worker flag (each
 * sets its key as a one-point sweep's `key = value` would) and
 * --report-fd. `peakfit worker --help` and the worker's parser read it. */
#ifndef PEAKFIT_WORKER_OPTIONS_H
#define PEAKFIT_WORKER_OPTIONS_H
#include "sweeps/sweep.h"
#include "util/options.h"

/* What the worker's options fill: a one-job sweep (sweep_new_point) and
 * the descriptor the report goes to. */
struct worker_point {
    struct sweep *sweep;
    struct sweep_job *job;
    int report_fd;
};

/* The table, built from the sweep key table on first use. */
const struct opt_table *worker_options(void);
#endif
