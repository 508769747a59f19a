/* group_predict.h: a group fit's prediction at a new point, its 95%
 * prediction interval, the knee, and the held-out points against them. */
#ifndef PEAKFIT_GROUP_PREDICT_H
#define PEAKFIT_GROUP_PREDICT_H
#include "fit/group.h"

/* Predicted peak (MiB) at batch b and seq_len s, the larger of P and the
 * line (and never below the allocator-level prediction where has_lower),
 * with the 95% prediction half-width for a new measurement there (NAN when
 * there is none: no residual dof). */
double group_predict(const struct group_fit *g, double b, double s, double *pi95);
/* A held-out point's prediction error, in % of its measured peak. */
double group_held_error_pct(const struct group_fit *g, int i);
/* Did held-out point i fall inside its prediction interval? */
int group_held_inside(const struct group_fit *g, int i);
/* Does the floor set the predicted peak at (b, s)? */
int group_floor_binds(const struct group_fit *g, double b, double s);
/* The line alone at (b, s), the gap's per-sample term included: what the
 * peak is above the knee. */
double group_line_at(const struct group_fit *g, double b, double s);
/* The knee at seq_len s: the tokens where the line reaches P (NAN without a floor). */
double group_knee_tokens(const struct group_fit *g, double s);
/* Activation memory per sample at seq_len s: A*s + B*s^2 (MiB). */
double group_per_sample(const struct group_fit *g, double s);
/* Measured at seq_len 1 only (a command job without seq_len: a model
 * with no sequence): a token is a sample, A is per sample. */
int group_is_per_sample(const struct group_fit *g);
/* A new point's leverage on the floor at T tokens. */
double group_floor_leverage(const struct floor_search *f, double tokens);
/* A new point's leverage on the chosen line (on the gap's fit where that
 * has the per-sample term). */
double group_line_leverage(const struct group_fit *g, double b, double s);
#endif
