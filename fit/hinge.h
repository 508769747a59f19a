/* hinge.h: peak = max(P_step, F + A*T (+ B*b*s^2)). Where a group's points
 * carry per-phase peaks (training techniques), the line is fitted to what
 * the forward and backward phases reached and P_step is what the optimizer
 * step reached (weights, grads, AdamW state and its temporaries: it does
 * not grow with tokens). At each point the memory above live tensors
 * (allocator caching, libraries: metric less the highest phase peak) goes
 * with both parts, so the larger of them is the measured peak exactly.
 * Which part set the peak at a point is read off its phases, not guessed. */
#ifndef PEAKFIT_HINGE_H
#define PEAKFIT_HINGE_H
#include "fit/observations.h"

/* Per point: the line's target, the step's, and which of them set the peak. */
struct hinge_point { double line_mib, step_mib; int step_binds; };

/* Does o carry the three phases' peaks? */
int hinge_has_phases(const struct observation *o);
/* The parts of o's peak metric_mib. */
void hinge_split(const struct observation *o, double metric_mib, struct hinge_point *out);
/* P_step from n points: the mean of the step parts where the step set the
 * peak, with its 95% half-width (NAN with fewer than two); where it set
 * none, the smallest step part, without an interval. */
void hinge_step(const struct hinge_point *pts, int n, double *p_step, double *ci95);
#endif
