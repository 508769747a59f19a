/* group_checks.h: what a group fit says of itself: leave-one-out errors,
 * the spread of a new measurement, the fixed costs and the poor-fit flags. */
#ifndef PEAKFIT_GROUP_CHECKS_H
#define PEAKFIT_GROUP_CHECKS_H
#include "fit/group.h"

/* Each needs the chosen model (group_chosen non-NULL) but group_fixed_costs */
void group_leave_one_out(struct group_fit *g);
void group_prediction_spread(struct group_fit *g);
void group_fixed_costs(struct group_fit *g);
void group_flag_poor_fit(struct group_fit *g);
#endif
