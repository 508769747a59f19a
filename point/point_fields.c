/* point_fields.c: the table. Rows that are part of the point id come in
 * the id's order: job/model/device/technique[/loraR-targets][/attention]
 * /bN/sN/stK/rR. */
#include <stdio.h>
#include <string.h>
#include "point/command_job.h"
#include "point/point_fields.h"
#include "core/attention.h"
#include "core/device.h"
#include "sweeps/sweep_keys.h"
#include "core/technique.h"

static const char *whole(point_text buf, long long v)
{
    snprintf(buf, sizeof(point_text), "%lld", v);
    return buf;
}

static int runs_steps(const struct grid_point *p) { return technique_runs_steps(p->technique); }
static int is_lora(const struct grid_point *p) { return technique_is_lora(p->technique); }
static int is_training(const struct grid_point *p) { return technique_is_training(p->technique); }

static const char *job_of(const struct grid_point *p, point_text b) { return (void)b, p->job->name; }
static const char *model_of(const struct grid_point *p, point_text b) { return (void)b, p->model; }
static const char *device_of(const struct grid_point *p, point_text b) { return (void)b, p->device; }
static const char *technique_of(const struct grid_point *p, point_text b)
{
    return (void)b, technique_name(p->technique);
}
static const char *lora_rank_of(const struct grid_point *p, point_text b) { return whole(b, p->job->lora_rank); }
static const char *lora_targets_of(const struct grid_point *p, point_text b)
{
    lora_targets_to_list(p->job->lora_targets, b, sizeof(point_text));
    return b;
}
static const char *attention_of(const struct grid_point *p, point_text b)
{
    return (void)b, attention_name(p->attention);
}
static const char *batch_of(const struct grid_point *p, point_text b) { return whole(b, p->batch); }
static const char *seq_len_of(const struct grid_point *p, point_text b) { return whole(b, p->seq_len); }
static const char *steps_of(const struct grid_point *p, point_text b) { return whole(b, p->job->steps); }
static const char *repeat_of(const struct grid_point *p, point_text b) { return whole(b, p->repeat); }
static const char *tokens_of(const struct grid_point *p, point_text b)
{
    return whole(b, (long long)p->batch * p->seq_len);
}
static const char *id_of(const struct grid_point *p, point_text b) { return (void)b, p->id; }
static const char *source_of(const struct grid_point *p, point_text b)
{
    return (void)b, p->model_source ? p->model_source : "";
}
/* Empty for a preset: there is no config file. */
static const char *hash_of(const struct grid_point *p, point_text b)
{
    if (!p->config_hash)
        return "";
    snprintf(b, sizeof(point_text), "%016llx", (unsigned long long)p->config_hash);
    return b;
}
static const char *seed_of(const struct grid_point *p, point_text b) { return whole(b, p->job->seed); }
static const char *threads_of(const struct grid_point *p, point_text b) { return whole(b, p->job->threads); }
static const char *timeout_of(const struct grid_point *p, point_text b)
{
    snprintf(b, sizeof(point_text), "%.17g", p->job->timeout_s);
    return b;
}
static const char *timeout_column(const struct grid_point *p, point_text b)
{
    snprintf(b, sizeof(point_text), "%.10g", p->job->timeout_s);
    return b;
}
static const char *mem_limit_of(const struct grid_point *p, point_text b)
{
    return whole(b, (long long)p->job->mem_limit);
}
/* MiB; empty for none. */
static const char *mem_limit_column(const struct grid_point *p, point_text b)
{
    if (p->job->mem_limit <= 0)
        return "";
    snprintf(b, sizeof(point_text), "%.10g", (double)p->job->mem_limit / 1048576.0);
    return b;
}
/* On a GPU the device's allocator enforces the limit; on the CPU the
 * runner's watchdog does. */
static int worker_enforces_limit(const struct grid_point *p)
{
    return p->job->mem_limit > 0 && device_is_gpu(p->device);
}
static const char *weights_of(const struct grid_point *p, point_text b) { return (void)b, p->job->weights; }
static int has_weights(const struct grid_point *p) { return p->job->weights[0] != '\0'; }
static const char *holdout_of(const struct grid_point *p, point_text b) { return whole(b, p->holdout); }
/* A command job's point is not the worker's: the settings line has the
 * command's hash, the column its words (point/command_job.h). */
static const char *command_of(const struct grid_point *p, point_text b)
{
    if (!p->job->command[0])
        return "";
    snprintf(b, sizeof(point_text), "%016llx", (unsigned long long)sweep_job_command_hash(p->job));
    return b;
}
static const char *command_column(const struct grid_point *p, point_text b) { return (void)b, command_job_text(p); }
static const char *warm_of(const struct grid_point *p, point_text b) { return whole(b, p->job->warm); }
/* The fit's group key keeps what measured a point apart: the built-in
 * worker, or a command job by its command (the hash of its words as written,
 * the settings line's), so the same points measured both ways are two fits. */
static const char *measured_by_of(const struct grid_point *p, point_text b)
{
    if (!p->job->command[0])
        return "worker";
    snprintf(b, sizeof(point_text), "command %016llx", (unsigned long long)sweep_job_command_hash(p->job));
    return b;
}

#define COL(c) .column = PEAKS_COL_##c
static const struct point_field fields[] = {
    {"job", NULL, COL(job), 0, "", NULL, NULL, job_of, NULL, NULL},
    {"model", NULL, COL(model), POINT_GROUP, "/", NULL, NULL, model_of, NULL, NULL},
    {"device", "device", COL(device), POINT_SETTINGS | POINT_KIND | POINT_GROUP, "/", NULL, NULL, device_of, NULL,
     NULL},
    {"technique", "technique", COL(technique), POINT_SETTINGS | POINT_KIND | POINT_GROUP, "/", NULL, NULL,
     technique_of, NULL, NULL},
    {"lora_rank", "lora_rank", COL(lora_rank), POINT_SETTINGS | POINT_KIND | POINT_GROUP, "/lora", is_lora, "",
     lora_rank_of, NULL, NULL},
    {"lora_targets", "lora_targets", COL(lora_targets), POINT_SETTINGS | POINT_KIND | POINT_GROUP, "-", is_lora, "",
     lora_targets_of, NULL, NULL},
    /* Attention matters only to techniques that run steps; the column has it all the same. */
    {"attention", "attention", COL(attention), POINT_SETTINGS | POINT_KIND | POINT_GROUP, "/", runs_steps, NULL,
     attention_of, NULL, NULL},
    {"batch", "batch", COL(batch), POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS, "/b", runs_steps, "0",
     batch_of, NULL, NULL},
    {"seq_len", "seq_len", COL(seq_len), POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS, "/s", runs_steps, "0",
     seq_len_of, NULL, NULL},
    {"steps", "steps", COL(steps), POINT_SETTINGS | POINT_ID_ALWAYS, "/st", runs_steps, "0", steps_of, NULL, NULL},
    {"repeat", NULL, COL(repeat), 0, "/r", NULL, NULL, repeat_of, NULL, NULL},
    {"tokens", NULL, COL(tokens), 0, NULL, NULL, NULL, tokens_of, NULL, NULL},
    {"point_id", NULL, COL(point_id), 0, NULL, NULL, NULL, id_of, NULL, NULL},
    {"model_source", "model", COL(model_source), POINT_SETTINGS | POINT_KIND, NULL, NULL, NULL, source_of, NULL,
     NULL},
    {"config_hash", NULL, COL(config_hash), POINT_SETTINGS, NULL, NULL, NULL, hash_of, NULL, NULL},
    {"seed", "seed", COL(seed), POINT_SETTINGS, NULL, NULL, NULL, seed_of, NULL, NULL},
    /* The worker gets the runner's share of the cores instead (worker_command.c). */
    {"threads", "threads", COL(threads_requested), POINT_SETTINGS | POINT_RUNNER_PASSES, NULL, NULL, NULL,
     threads_of, NULL, NULL},
    {"timeout_s", "timeout", COL(timeout_s), POINT_SETTINGS, NULL, NULL, NULL, timeout_of, timeout_column, NULL},
    {"mem_limit", "mem_limit", COL(mem_limit_mib), POINT_SETTINGS | POINT_PLANNED, NULL, NULL, NULL, mem_limit_of,
     mem_limit_column, worker_enforces_limit},
    {"weights", "weights", COL(weights), POINT_SETTINGS, NULL, NULL, NULL, weights_of, NULL, has_weights},
    {"holdout", NULL, COL(holdout), POINT_SETTINGS, NULL, NULL, NULL, holdout_of, NULL, NULL},
    /* Only training makes AdamW's state. */
    {"warm", "warm", COL(warm), POINT_SETTINGS | POINT_GROUP, NULL, is_training, "0", warm_of, NULL, NULL},
    /* No key: verify measures again with the built-in worker, not a command. */
    {"command", NULL, COL(command), POINT_SETTINGS, NULL, NULL, NULL, command_of, command_column, NULL},
    /* The settings line has the command's hash already (the row above). */
    {"measured_by", NULL, COL(measured_by), POINT_GROUP, NULL, NULL, NULL, measured_by_of, NULL, NULL},
};
enum { FIELD_COUNT = sizeof fields / sizeof fields[0] };

const struct point_field *point_field_at(int i) { return i >= 0 && i < FIELD_COUNT ? &fields[i] : NULL; }

const struct point_field *point_field_of_column(enum peaks_column c)
{
    for (int i = 0; i < FIELD_COUNT; i++)
        if (fields[i].column == c)
            return &fields[i];
    return NULL;
}

int point_field_applies(const struct point_field *f, const struct grid_point *p)
{
    return !f->applies || f->applies(p);
}

const char *point_field_text(const struct point_field *f, const struct grid_point *p, point_text buf)
{
    if (!point_field_applies(f, p) && f->off_text)
        return f->off_text;
    return f->value(p, buf);
}

const char *point_field_column_text(const struct point_field *f, const struct grid_point *p, point_text buf)
{
    if (point_field_applies(f, p) && f->column_text)
        return f->column_text(p, buf);
    return point_field_text(f, p, buf);
}

int point_field_passed(const struct point_field *f, const struct grid_point *p)
{
    const struct sweep_key *k = f->key ? sweep_key_find(f->key) : NULL;
    return k && k->flag && point_field_applies(f, p) && !(f->uses & POINT_RUNNER_PASSES) &&
           (!f->passed_if || f->passed_if(p));
}
