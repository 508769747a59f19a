/* plot_data.h: the data files the gnuplot script reads, each written
 * whole or not at all (util/output_file.h). */
#ifndef PEAKFIT_PLOT_DATA_H
#define PEAKFIT_PLOT_DATA_H
#include "fit/fit_set.h"
#include "util/output_file.h"

/* The rss-metric groups, the ones charted, in order, in *out (to free());
 * returns the count, or -1 when memory ran out. */
int plot_groups(const struct fit_set *set, const struct group_fit ***out);
/* Writes points-I.dat, fit-I.dat, residuals-I.dat, throughput-I.dat for
 * each charted group and breakdown.dat into dir. Returns 0, or -1 after
 * saying why. */
int plot_data_write(const char *dir, const struct group_fit *const *groups, int n);
/* DIR/NAME through a temporary file; each returns 0, or -1 after saying
 * why ("peakfit: PATH: cannot write: reason"). */
int plot_file_open(struct output_file *out, const char *dir, const char *name);
int plot_file_commit(struct output_file *out);
/* The breakdown bar's label of a group: model (when the groups hold more
 * than one), device (likewise), technique, batch and seq_len. */
void plot_group_label(char *out, size_t size, const struct group_fit *const *groups, int n, int i,
                      const char *separator);
/* Are the per-phase peaks of group i's technique at one token count only
 * (one point each)? plot charts those as bars (phase-bars.dat). */
int plot_phase_single(const struct group_fit *const *groups, int n, int i);
#endif
