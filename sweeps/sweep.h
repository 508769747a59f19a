/* sweep.h: a sweep file, parsed. Format (fio-like): a [global] section of
 * defaults, then named job sections that override them; each job's grid is
 * model x device x technique x seq_len x batch x repeat. */
#ifndef PEAKFIT_SWEEP_H
#define PEAKFIT_SWEEP_H
#include <stddef.h>
#include <stdint.h>
#include "peakfit_torch.h"

enum { SWEEP_MAX_LIST = 32, SWEEP_MAX_MODELS = 8, SWEEP_MAX_JOBS = 64 };
enum { SWEEP_NAME_MAX = 64, SWEEP_PATH_MAX = 512 };

struct sweep_job {
    char name[SWEEP_NAME_MAX];
    int line; /* of its [name] header */
    char models[SWEEP_MAX_MODELS][SWEEP_PATH_MAX];
    int n_models;
    char devices[SWEEP_MAX_LIST][8];
    int n_devices;
    pf_technique techniques[SWEEP_MAX_LIST];
    int n_techniques;
    int batches[SWEEP_MAX_LIST];
    int n_batches;
    int seq_lens[SWEEP_MAX_LIST];
    int n_seq_lens;
    int steps;
    int repeats;
    int threads;          /* 0: libtorch's default */
    double timeout_s;
    int64_t mem_limit;    /* bytes above the worker's baseline; 0: none */
    long seed;
    int lora_rank;
    unsigned lora_targets;
    char weights[SWEEP_PATH_MAX]; /* safetensors file, or "" for random */
};

struct sweep {
    char path[SWEEP_PATH_MAX];
    struct sweep_job jobs[SWEEP_MAX_JOBS];
    int n_jobs;
};

/* Parses and validates a sweep file. Returns a sweep to free(), or NULL
 * with "FILE:LINE: what is wrong" in err. */
struct sweep *sweep_load(const char *path, char *err, size_t errlen);
#endif
