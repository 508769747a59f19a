/* group_floor_points.h: which points of a group lie on the floor. */
#ifndef PEAKFIT_GROUP_FLOOR_POINTS_H
#define PEAKFIT_GROUP_FLOOR_POINTS_H
#include "fit/group.h"

/* Are exact's points g's, in the same order? */
int group_same_points(const struct group_fit *g, const struct group_fit *exact);
/* Marks g's points on the floor and fits it (x1, x2, y: room for n
 * entries each); exact's floor where given and better. -1 out of memory. */
int group_find_floor(struct group_fit *g, const struct group_fit *exact, double *x1, double *x2, double *y);
#endif
