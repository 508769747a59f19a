/* limits.h: the ranges and defaults that the sweep parser, the worker's
 * options, `params` and `calc` share, written once. */
#ifndef PEAKFIT_LIMITS_H
#define PEAKFIT_LIMITS_H

#define LIMIT_BATCH_MAX 1000000L        /* micro-batch, 1 .. this */
#define LIMIT_SEQ_LEN_MAX 1000000L      /* sequence length, 1 .. this */
#define LIMIT_STEPS_MAX 1000L
#define LIMIT_REPEATS_MAX 1000L
#define LIMIT_THREADS_MAX 4096L         /* 0: libtorch's default */
#define LIMIT_SEED_MAX 2147483647L
#define LIMIT_LORA_RANK_MAX 65536L
#define LIMIT_LAYERS_MAX 10000L        /* a slice's decoder layers (models/model_config.h's CONFIG_LAYERS_MAX) */
#define LIMIT_REPLICAS_MAX 1000000L
#define LIMIT_TARGET_BATCH_MAX 1000000000L
#define LIMIT_GRID_POINTS_MAX 1000000L   /* points in one sweep, counted before any is made */
/* points measured at once (the sweep's jobs, run -j): the pool's slots, the
 * workers one poll waits on, the GPUs handed out (one to each slot) */
#define LIMIT_JOBS_MAX 64

/* A plain loop's two steps: the first makes the optimizer's state between
 * the activations, as every loop does; its RSS is above one warm step's
 * (bench/results/warm-step.txt). */
#define DEFAULT_STEPS 2
#define DEFAULT_WARM 0                  /* 1: the optimizer's state made before the first step */
#define DEFAULT_REPEATS 1
#define DEFAULT_TIMEOUT_S 600            /* seconds */
#define DEFAULT_LORA_RANK 8
#define DEFAULT_LORA_TARGETS_TEXT "q, v"
#define DEFAULT_LEARNING_RATE 1e-4
/* A command job's technique where it names none: a label (core/technique.h). */
#define COMMAND_TECHNIQUE_DEFAULT "train"
#endif
