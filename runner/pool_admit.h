/* pool_admit.h: whether the pool may start a point now (pool_admit.c). */
#ifndef PEAKFIT_POOL_ADMIT_H
#define PEAKFIT_POOL_ADMIT_H
#include "runner/pool_slots.h"

/* May point i start now in slot k? *predicted: its predicted peak (MiB);
 * *alone: whether it must run with nothing beside it. */
int pool_may_start(struct pool *pl, int k, int i, double *predicted, int *alone);
/* A point that cannot fit in the free memory now, with one job at a time:
 * r holds its refusal (a later run measures it again). 1 when refused. */
int pool_refused_for_memory(struct pool *pl, int i, struct point_result *r);
#endif
