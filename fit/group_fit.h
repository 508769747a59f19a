/* group_fit.h: one group's fit run end to end (fit/group.h: the model and
 * its struct): the floor, both models above it and the choice, then the
 * checks and the held-out points. */
#ifndef PEAKFIT_GROUP_FIT_H
#define PEAKFIT_GROUP_FIT_H
#include "fit/group.h"
/* The parts' own functions, for callers of the whole fit: one include. */
#include "fit/group_checks.h"
#include "fit/group_floor_points.h"
#include "fit/group_gap.h"
#include "fit/group_predict.h"
#include "fit/group_spread.h"

/* Fits one group: the observations in o->ok with this key. Returns 0, -1
 * when the group has no points, -2 when memory ran out; g is freeable
 * whatever it returns. */
int group_fit_run(const struct observations *o, const struct group_key *key, enum metric metric,
                  struct group_fit *g);
/* group_fit_run, with the floor's points taken from exact, an
 * allocator-level fit of the same points (tensor on the CPU, allocated on
 * a GPU), where that floor fits this metric better than the line alone;
 * else searched as always. exact may be NULL. */
int group_fit_run_hinted(const struct observations *o, const struct group_key *key, enum metric metric,
                         const struct group_fit *exact, struct group_fit *g);
void group_fit_free(struct group_fit *g);
#endif
