/* sweep.h: a sweep file, parsed. Format (fio-like): a [global] section of
 * defaults, then named job sections that override them; each job's grid is
 * model x device x layers x technique x attention x seq_len x batch x
 * repeat x each list axis of the settings table (its JOB_AXIS and
 * JOB_TRAIN rows: lora_rank, warm, optimizer, ...). The keys, their
 * types, ranges and defaults are one table: sweeps/sweep_keys.h. */
#ifndef PEAKFIT_SWEEP_H
#define PEAKFIT_SWEEP_H
#include <stddef.h>
#include <stdint.h>
#include "models/model_spec.h"
#include "core/attention.h"
#include "core/optimizer.h"
#include "core/technique.h"
#include "settings/setting_rows.h"

/* Every bound is an error message when crossed, never a silent cut. */
enum { SWEEP_MAX_LIST = 32, SWEEP_MAX_MODELS = 8, SWEEP_MAX_JOBS = 64 };
enum { SWEEP_NAME_MAX = 64, SWEEP_PATH_MAX = 512, SWEEP_LONG_PATH_MAX = 4096, SWEEP_DEVICE_MAX = 16 };
enum { SWEEP_LINE_MAX = 4096 };
enum { SWEEP_MAX_PARAMS = 16, SWEEP_PARAM_NAME_MAX = 32, SWEEP_PARAM_VALUE_MAX = 256 };
#define SWEEP_FILE_MAX_BYTES (16LL << 20)

/* A model a sweep names, resolved once however many jobs list it. */
struct sweep_model {
    struct model_spec spec; /* spec.name is what ids and tables show */
    int line;               /* where the sweep first names it */
};

typedef char sweep_device[SWEEP_DEVICE_MAX];

/* A setting's field, as its row's key names it (settings/setting_rows.h):
 * JOB_FIELD(type, name), JOB_TEXT(name, size), JOB_LIST(type, name,
 * count, most), a list with its count, or JOB_AXIS(type, name) and
 * JOB_TRAIN(type, name) (a training option too), a list with its count
 * n_name. sweeps/sweep_keys.c reads the
 * same words for where the key's value goes. */
#define SWEEP_JOB_MEMBER(A, name, key, ...) SWEEP_JOB_MEMBER_##key
#define SWEEP_JOB_MEMBER_NOKEY
#define SWEEP_JOB_MEMBER_KEY(n, storage, ...) SWEEP_JOB_DECL_##storage
#define SWEEP_JOB_DECL_JOB_FIELD(type, f) type f;
#define SWEEP_JOB_DECL_JOB_AXIS(type, f) \
    type f[SWEEP_MAX_LIST];                \
    int n_##f;
#define SWEEP_JOB_DECL_JOB_TRAIN(type, f) SWEEP_JOB_DECL_JOB_AXIS(type, f)
#define SWEEP_JOB_DECL_JOB_TEXT(f, size) char f[size];
#define SWEEP_JOB_DECL_JOB_LIST(type, f, n, most) \
    type f[most];                                 \
    int n;

struct sweep_job {
    char name[SWEEP_NAME_MAX];
    int line;             /* of its [name] header */
    /* Each setting's value: models (indices into sweep->models), devices,
     * techniques, attentions, batches, seq_lens, steps, seed, threads
     * (requested; 0: libtorch's default), timeout_s, mem_limit (bytes
     * above the worker's baseline; 0: none), lora_rank, lora_targets,
     * layers (a slice's decoder layers; 0: the config's), weights
     * (canonical path of a safetensors file, or "" for random),
     * warm (1: AdamW state made before the first step), in the table's
     * order. */
    SETTING_ROWS(SWEEP_JOB_MEMBER, _)
    int device_line;      /* of the device key that set devices; 0: the default */
    int technique_line;   /* of the technique key that named a label first; 0: none */
    int repeats;
    /* points measured but kept out of the fit, to check its predictions */
    struct sweep_pair { int batch, seq_len; } holdouts[SWEEP_MAX_LIST];
    int n_holdouts;
    int jobs;             /* points measured at once (runner/pool.h); `run -j` overrides */
    /* A command job runs this instead of peakfit-worker ("" for the
     * worker): sweeps/command_template.h says how it is split and filled in. */
    char command[SWEEP_LINE_MAX];
    int command_line;     /* of the command key */
    int shell;            /* 1: run by /bin/sh -c, each value shell-quoted */
    /* param.NAME = value: the job's own {param.NAME} placeholders */
    struct sweep_param {
        char name[SWEEP_PARAM_NAME_MAX], value[SWEEP_PARAM_VALUE_MAX];
        int line;
    } params[SWEEP_MAX_PARAMS];
    int n_params;
};

struct sweep {
    char path[SWEEP_LONG_PATH_MAX]; /* as given: messages name the file so */
    struct sweep_model *models;     /* every distinct model of every job */
    int n_models;
    struct sweep_job jobs[SWEEP_MAX_JOBS];
    int n_jobs;
};

/* Parses and validates a sweep file. Returns a sweep for sweep_free(), or
 * NULL with "FILE:LINE: what is wrong" in err. Device names are checked
 * here; whether this libtorch has them is runner/device_check.h's
 * device_check_sweep(). */
struct sweep *sweep_load(const char *path, char *err, size_t errlen);
/* Whether name may name a job's [section]: 1 to SWEEP_NAME_MAX - 1
 * letters, digits or _-.+ */
int sweep_job_name_valid(const char *name);

/* A sweep of one job, "point", holding the defaults, whose keys are then set
 * one by one with sweep_set (the worker's options). Relative paths are
 * relative to the current directory. NULL when out of memory. */
struct sweep *sweep_new_point(void);
/* Sets key of job as a sweep file's `key = value` would, with the same
 * checks (s may be NULL for a key that names no model), but to one value: a list key's value is not split at its commas
 * (the worker's options are one point's, and a model's canonical path may
 * hold a comma). Returns 0, or -1 with the message (no file or line) in
 * err. */
int sweep_set(struct sweep *s, struct sweep_job *job, const char *key, const char *value, char *err,
              size_t errlen);

/* The model at index i of a job's list. */
const struct model_spec *sweep_job_model(const struct sweep *s, const struct sweep_job *job, int i);
/* The config the job builds model i with at depth layers (one of the
 * job's `layers` list): the model's own, cut to that many decoder layers
 * where it is not 0. */
pf_model_config sweep_job_config(const struct sweep *s, const struct sweep_job *job, int i, int layers);
/* Whether the job's model i can be built here at each of the job's depths: a slice
 * no deeper than its model, without `weights` (a checkpoint holds every
 * layer), fp32 weights within this machine's memory. Returns 0, or -1 with
 * "what is wrong" in why. */
int sweep_job_model_check(const struct sweep *s, const struct sweep_job *job, int i, char *why, size_t whylen);
void sweep_free(struct sweep *s);
/* The table's defaults, as a job starts before [global] changes them. */
void sweep_job_defaults(struct sweep_job *job);
/* The value of a command job's {param.NAME} placeholder (name: "param.NAME",
 * len bytes), or NULL when the job has no such param. */
const char *sweep_job_param(const struct sweep_job *job, const char *name, size_t len);
/* A fingerprint of a command job's command, shell and params (0 for the
 * built-in worker): two jobs that differ in them measure different things. */
uint64_t sweep_job_command_hash(const struct sweep_job *job);
#endif
