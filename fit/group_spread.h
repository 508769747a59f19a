/* group_spread.h: RSS's spread between runs and between machines. */
#ifndef PEAKFIT_GROUP_SPREAD_H
#define PEAKFIT_GROUP_SPREAD_H
#include "fit/group.h"

/* RSS's spread between runs (see run_spread), set by
 * group_prediction_spread; the 95% half-width alone at prediction y (0
 * where none); the half-width of a new measurement with the fit's own
 * variance fit_var (sigma^2 (1 + leverage)) and the spread's together;
 * the default r; and "1.05% (the default, ...)" */
void group_run_spread(struct group_fit *g);
double group_run_spread_pi95(const struct group_fit *g, double y);
double group_interval_half(const struct group_fit *g, double fit_var, double y);
double group_run_spread_default(void);
/* A prediction's 95% half-width pi95 at y for a measurement on another
 * machine than the fit's (another CPU): RSS adds the spread between
 * machines in quadrature; the allocator-level metrics are the same there. */
double group_other_machine_pi95(const struct group_fit *g, double y, double pi95);
/* The relative sd of RSS between two machines at one point. */
double group_machine_spread(void);
void group_run_spread_describe(const struct group_fit *g, char *out, unsigned long size);
#endif
