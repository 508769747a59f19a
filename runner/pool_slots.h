/* pool_slots.h: the pool's state, shared by pool.c (starting, watching and
 * collecting) and pool_admit.c (whether a point may start now). */
#ifndef PEAKFIT_POOL_SLOTS_H
#define PEAKFIT_POOL_SLOTS_H
#include <limits.h>
#include "proc/command_watch.h"
#include "proc/gpu_slots.h"
#include "point/grid.h"
#include "protocol/point_result.h"
#include "point/predict.h"
#include "proc/spawn.h"
#include "sweeps/limits.h"

enum { POOL_MAX = LIMIT_JOBS_MAX };

struct slot {
    int busy, index, alone;
    double predicted_mib;
    struct spawned sp;
    struct point_result r;
    struct proc_cores cpus;
    int share;              /* cores in cpus */
    char blas_env[48];      /* OPENBLAS_NUM_THREADS=share */
    enum gpu_use gpu;       /* how its running point uses the GPUs */
    char gpu_env[32 + GPU_ID_MAX]; /* CUDA_VISIBLE_DEVICES=its GPU, when it has one */
    double started_s, said_s; /* monotonic: when its point started, when a line last said so */
    struct command_watch watch;     /* a command job's point (point/command_job.h) */
};

struct pool {
    const struct grid *g;
    int jobs, running;
    struct slot slots[POOL_MAX];
    struct predictor predictor;
    struct gpu_slots gpus;
    char worker[PATH_MAX];  /* peakfit-worker */
};
#endif
