/* auto_args.h: `peakfit auto`'s options (auto_args.c). */
#ifndef PEAKFIT_AUTO_ARGS_H
#define PEAKFIT_AUTO_ARGS_H
#include "autosweep/auto_sweep.h"

#include "util/options.h"

/* auto's options: the parser's table, its --help and synopsis. */
extern const struct opt_table auto_options;
/* Fills r from auto's command line; 0, or -1 with what is wrong in why. */
int auto_parse_args(int argc, char **argv, struct auto_request *r, char *why, size_t size);
/* --points where not given: 8; 5 with --budget (settled once the model is
 * known). --slices chooses its points by its own plan. */
void auto_default_points(struct auto_request *r);
#endif
