/* fit_output.h: what `peakfit fit DIR` writes and prints (src/fit_cmd.c). */
#ifndef PEAKFIT_FIT_OUTPUT_H
#define PEAKFIT_FIT_OUTPUT_H
#include "fit/fit_set.h"

/* Writes DIR/fit.csv, DIR/fit-residuals.csv and DIR/fit.json; returns 0 or -1. */
int fit_write_files(const struct fit_set *set);
/* The human table, as `peakfit fit` prints it. */
void fit_print_table(const struct fit_set *set, FILE *out);
#endif
