/* sweep_freeze.h: the copy of a sweep that a results directory keeps
 * (DIR/sweep.sweep), which `run DIR/sweep.sweep` and a Slurm job's tasks
 * run. A model or weights path is relative to the sweep file, so the
 * copy, in another directory, would name other files (every Slurm task
 * failed with "cannot open model config"): its relative paths are written
 * resolved, absolute, and every other byte as it was. A resolved path that
 * the parser would misread (the sweep's folder holds " #" or, for model, a
 * comma: sweep_write.h's rule) stays as written. */
#ifndef PEAKFIT_SWEEP_FREEZE_H
#define PEAKFIT_SWEEP_FREEZE_H
#include <stddef.h>
#include <stdio.h>

/* Writes text (len bytes, the sweep file at sweep_path) to out with the
 * relative paths of its path keys (model, weights) that name a file or
 * folder beside it made absolute. Returns 0, or -1 when out of memory. */
int sweep_freeze(const char *sweep_path, const char *text, size_t len, FILE *out);
#endif
