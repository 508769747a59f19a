/* auto_args.h: `peakfit auto`'s options (auto_args.c). */
#ifndef PEAKFIT_AUTO_ARGS_H
#define PEAKFIT_AUTO_ARGS_H
#include "autosweep/auto_sweep.h"

/* Fills r from auto's command line; 0, or EXIT_BAD_INPUT after the usage. */
int auto_parse_args(int argc, char **argv, struct auto_request *r);
#endif
