/* grid.h: a sweep expanded into the points that each run in one process. */
#ifndef PEAKFIT_GRID_H
#define PEAKFIT_GRID_H
#include <stdint.h>
#include "sweeps/sweep.h"

struct grid_point {
    const struct sweep_job *job;
    const char *model;
    const char *model_source; /* preset name or canonical config path */
    uint64_t config_hash;     /* of the config file; 0 for a preset */
    const char *device;
    pf_technique technique;
    int batch;    /* 0 for technique load */
    int seq_len;  /* 0 for technique load */
    int repeat;   /* 0 .. job->repeats - 1 */
    char id[SWEEP_PATH_MAX + 160]; /* stable key, for resuming */
};

struct grid {
    struct grid_point *points;
    int n;
    const char *sweep_path; /* the sweep it came from, for messages */
};

/* Order: job, model, device, technique, seq_len, batch, repeat. Returns 0,
 * or -1 when out of memory. */
int grid_expand(const struct sweep *sweep, struct grid *out);
void grid_free(struct grid *grid);
#endif
