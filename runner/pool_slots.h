/* pool_slots.h: the pool's state, shared by pool.c (starting, watching and
 * collecting) and pool_admit.c (whether a point may start now). */
#ifndef PEAKFIT_POOL_SLOTS_H
#define PEAKFIT_POOL_SLOTS_H
#include <limits.h>
#include <sched.h>
#include "runner/command_watch.h"
#include "runner/gpu_slots.h"
#include "runner/grid.h"
#include "runner/point_result.h"
#include "runner/predict.h"
#include "runner/spawn.h"

enum { POOL_MAX = 64 };

struct slot {
    int busy, index, alone;
    double predicted_mib;
    struct spawned sp;
    struct point_result r;
    cpu_set_t cpus;
    int share;              /* cores in cpus */
    char blas_env[48];      /* OPENBLAS_NUM_THREADS=share */
    enum gpu_use gpu;       /* how its running point uses the GPUs */
    char gpu_env[32 + GPU_ID_MAX]; /* CUDA_VISIBLE_DEVICES=its GPU, when it has one */
    double started_s, said_s; /* monotonic: when its point started, when a line last said so */
    struct command_watch watch;     /* a command job's point (runner/command_job.h) */
};

struct pool {
    const struct grid *g;
    int jobs, running;
    struct slot slots[POOL_MAX];
    struct predictor predictor;
    struct gpu_slots gpus;
    char worker[PATH_MAX];  /* peakfit-worker */
};

/* May point i start now in slot k? *predicted: its predicted peak (MiB);
 * *alone: whether it must run with nothing beside it. */
int pool_may_start(struct pool *pl, int k, int i, double *predicted, int *alone);
/* A point that cannot fit in the free memory now, with one job at a time:
 * r holds its refusal (a later run measures it again). 1 when refused. */
int pool_refused_for_memory(struct pool *pl, int i, struct point_result *r);
#endif
