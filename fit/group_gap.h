/* group_gap.h: RSS (or reserved) as the allocator-level fit plus a gap. */
#ifndef PEAKFIT_GROUP_GAP_H
#define PEAKFIT_GROUP_GAP_H
#include "fit/group.h"

/* The fit as exact's plus a gap (see gap_model); -1 out of memory. */
int group_gap_fit(struct group_fit *g, const struct group_fit *exact);
/* The coefficients fitted to this metric's points (dof). */
int group_coefficients(const struct group_fit *g);
#endif
