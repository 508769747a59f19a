/* point.h: one point of a grid, measured in one process: its settings,
 * resolved (model, device, technique, attention, batch, seq_len) or
 * through its job; point/point_fields.c's table says how each one
 * crosses to the worker, the settings line, the id and peaks.csv. */
#ifndef PEAKFIT_POINT_H
#define PEAKFIT_POINT_H
#include <stdint.h>
#include "core/attention.h"
#include "core/technique.h"
#include "sweeps/job_train_options.h"
#include "sweeps/sweep.h"

/* A point, and (through job) every setting it is measured under: steps,
 * seed, threads (requested), timeout_s, mem_limit, weights (canonical);
 * the list axes' values (lora_rank, lora_targets, warm, optimizer, ...)
 * are its own; grid_point_settings() writes them all. */
enum { GRID_ID_MAX = 512 };

struct grid_point {
    const struct sweep_job *job;
    const char *model;        /* display name: what ids and tables show */
    const char *model_source; /* preset name or canonical config.json path: what the worker loads */
    uint64_t config_hash;     /* FNV-1a of the config file; 0 for a preset */
    const char *device;
    pf_technique technique;
    pf_attention attention;
    int layers;   /* a slice's decoder layers (one of the job's list); 0: the config's depth */
    int batch;    /* 0 for a technique without steps (load) */
    int seq_len;  /* 0 for a technique without steps (load) */
    int repeat;   /* 0 .. job->repeats - 1 */
    int holdout;  /* 1: one of the job's holdout points, measured but kept out of the fit */
    struct point_axes axes; /* one value of each of the job's list axes of the settings table */
    /* job/model/device/technique[/loraR-targets][/layersN][/attention]/bN/sN/stK/rR,
     * then each list axis the job lists more than one value of ([/warmW][/O]
     * [/zero-grad-Z][/wdD]): stable, for resuming, and never cut (grid.c). */
    char id[GRID_ID_MAX];
};
#endif
