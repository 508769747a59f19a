/* grid.h: a sweep expanded into the points that each run in one process. */
#ifndef PEAKFIT_GRID_H
#define PEAKFIT_GRID_H
#include "point/point.h"
#include "sweeps/sweep.h"

struct grid {
    struct grid_point *points;
    int n;
    char *warnings; /* lines for stderr ("peakfit: warning: ..."), or NULL */
    const char *sweep_path; /* the sweep it came from, for messages */
};

/* Everything grid and run check before the first point but the devices
 * (runner/device_check.h), and the points: the number of points (at most
 * LIMIT_GRID_POINTS_MAX, counted before allocating), then the expansion,
 * where a point that two jobs share is kept once (with a warning in
 * grid->warnings naming both jobs). Returns EXIT_DONE, or EXIT_BAD_INPUT /
 * EXIT_IO (out of memory) with the message in err. */
int grid_build(const struct sweep *sweep, struct grid *out, char *err, size_t errlen);

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
