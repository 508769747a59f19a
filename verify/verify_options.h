/* verify_options.h: `peakfit verify`'s options (verify_options.c). */
#ifndef PEAKFIT_VERIFY_OPTIONS_H
#define PEAKFIT_VERIFY_OPTIONS_H
#include "reports/calc.h"
#include "util/options.h"

/* verify's options: the parser's table, its --help and synopsis. */
extern const struct opt_table verify_options;
/* Fills r and *dir from verify's command line; 0, or -1 with what is wrong in why. */
int verify_parse_args(int argc, char **argv, struct calc_request *r, const char **dir, char *why, size_t size);
#endif
