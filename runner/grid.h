/* grid.h: a sweep expanded into the points that each run in one process. */
#ifndef PEAKFIT_GRID_H
#define PEAKFIT_GRID_H
#include <stdint.h>
#include "sweeps/sweep.h"

/* A point, and (through job) every setting it is measured under: steps,
 * seed, threads (requested), timeout_s, mem_limit, weights (canonical),
 * lora_rank and lora_targets; grid_point_settings() writes them all. */
enum { GRID_ID_MAX = 400 };

struct grid_point {
    const struct sweep_job *job;
    const char *model;        /* display name: what ids and tables show */
    const char *model_source; /* preset name or canonical config.json path: what the worker loads */
    uint64_t config_hash;     /* FNV-1a of the config file; 0 for a preset */
    const char *device;
    pf_technique technique;
    pf_attention attention;
    int batch;    /* 0 for a technique without steps (load) */
    int seq_len;  /* 0 for a technique without steps (load) */
    int repeat;   /* 0 .. job->repeats - 1 */
    int holdout;  /* 1: one of the job's holdout points, measured but kept out of the fit */
    /* job/model/device/technique[/loraR-targets]/bN/sN/stK/rR: stable, for
     * resuming. At most 63 + 127 + 15 + 9 + 31 + 31 + 5 characters: never cut. */
    char id[GRID_ID_MAX];
};

struct grid {
    struct grid_point *points;
    int n;
    char *warnings; /* lines for stderr ("peakfit: warning: ..."), or NULL */
    const char *sweep_path; /* the sweep it came from, for messages */
};

/* Everything grid and run check before the first point, and the points:
 * the devices against this libtorch, the number of points (at most
 * LIMIT_GRID_POINTS_MAX, counted before allocating), then the expansion,
 * where a point that two jobs share is kept once (with a warning in
 * grid->warnings naming both jobs). Returns EXIT_DONE, or EXIT_BAD_INPUT /
 * EXIT_IO (out of memory) with the message in err. */
int grid_build(const struct sweep *sweep, struct grid *out, char *err, size_t errlen);

/* FILE:LINE: "device cuda is not available in this build of libtorch ...",
 * for the first device of the sweep that this libtorch cannot use.
 * Returns 0, or -1 with the message in err. Part of grid_build. */
int grid_check_devices(const struct sweep *sweep, char *err, size_t errlen);

/* How many points the sweep's jobs make, before duplicates are dropped. */
long long grid_count(const struct sweep *sweep);

/* Order: job, model, device, technique, seq_len, batch, repeat. Returns 0,
 * or -1 when out of memory (or over LIMIT_GRID_POINTS_MAX). Prefer
 * grid_build, which says why. */
int grid_expand(const struct sweep *sweep, struct grid *out);

/* "12 points; at most 2:00:00 by their timeouts" */
void grid_summary(const struct grid *grid, char *out, size_t size);

/* Every setting that changes the point's measurement, as one line of
 * key=value pairs separated by ';' (the repeat excluded): model_source,
 * config_hash, device, technique, batch, seq_len, steps, seed, threads,
 * timeout_s, mem_limit, weights, lora_rank, lora_targets, holdout. Two points with
 * the same settings measure the same thing. */
void grid_point_settings(const struct grid_point *p, char *out, size_t size);

void grid_free(struct grid *grid);
#endif
