/* plot_data.h: the data files the gnuplot script reads. */
#ifndef PEAKFIT_PLOT_DATA_H
#define PEAKFIT_PLOT_DATA_H
#include "fit/fit_set.h"

/* The rss-metric groups, the ones charted, in order; returns the count. */
int plot_groups(const struct fit_set *set, const struct group_fit **out, int max);
/* Writes points-I.dat, fit-I.dat, residuals-I.dat, throughput-I.dat for
 * each charted group and breakdown.dat into dir. Returns 0 or -1. */
int plot_data_write(const char *dir, const struct group_fit *const *groups, int n);
#endif
