/* group_parts.h: what the files of one group fit (group_fit.c,
 * group_floor_points.c, group_checks.c, group_predict.c) share; not for
 * callers outside fit/group_*. */
#ifndef PEAKFIT_GROUP_PARTS_H
#define PEAKFIT_GROUP_PARTS_H
#include "fit/group_fit.h"

/* b*s^2 at a point: the attention-score term's variable. */
double group_bs2(const struct observation *p);
/* The prediction from a line fit f at point p: the larger of P and the line. */
double group_point_predict(const struct group_fit *g, const struct ols *f, const struct observation *p);
/* x1 = T, x2 = b*s^2 and y for the points, all (all) or those above the knee; returns how many. */
int group_design(const struct group_fit *g, int all, double *x1, double *x2, double *y);
/* What the metric's peak comes on top of at one observation. */
double group_metric_baseline(const struct observation *o, enum metric m);
/* A new point's leverage on the floor at T tokens. */
double group_floor_leverage(const struct floor_search *f, double tokens);

/* group_floor_points.c */
int group_same_points(const struct group_fit *g, const struct group_fit *exact);
int group_find_floor(struct group_fit *g, const struct group_fit *exact, double *x1, double *x2, double *y);
void group_lower_bound(struct group_fit *g, const struct group_fit *exact);

/* group_checks.c: each needs the chosen model (group_chosen non-NULL) but group_fixed_costs */
void group_leave_one_out(struct group_fit *g);
void group_prediction_spread(struct group_fit *g);
void group_fixed_costs(struct group_fit *g);
void group_flag_poor_fit(struct group_fit *g);
#endif
