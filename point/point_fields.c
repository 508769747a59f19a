/* point_fields.c: the table's rows (settings/setting_rows.h) as struct
 * point_field, and the code each row names. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "point/point_fields.h"
#include "util/parse.h"
#include "core/attention.h"
#include "core/device.h"
#include "core/optimizer.h"
#include "sweeps/command_template.h"
#include "sweeps/sweep_keys.h"
#include "core/technique.h"

static const char *whole(point_text buf, long long v)
{
    snprintf(buf, sizeof(point_text), "%lld", v);
    return buf;
}

static int runs_steps(const struct grid_point *p) { return technique_runs_steps(p->technique); }
static int is_lora(const struct grid_point *p) { return technique_is_lora(p->technique); }
/* A command job's label may train: its job's warm stands, as for a technique that does. */
static int is_training(const struct grid_point *p)
{
    return technique_is_training(p->technique) || technique_is_label(p->technique);
}

static const char *job_of(const struct grid_point *p, point_text b) { return (void)b, p->job->name; }
static const char *model_of(const struct grid_point *p, point_text b) { return (void)b, p->model; }
static const char *device_of(const struct grid_point *p, point_text b) { return (void)b, p->device; }
static const char *technique_of(const struct grid_point *p, point_text b)
{
    return (void)b, technique_name(p->technique);
}
static const char *lora_targets_of(const struct grid_point *p, point_text b)
{
    lora_targets_to_list(p->axes.lora_targets, b, sizeof(point_text));
    return b;
}
/* A point of a slice: the model cut to p->layers decoder layers. */
static int is_slice(const struct grid_point *p) { return p->layers > 0; }
static const char *attention_of(const struct grid_point *p, point_text b)
{
    return (void)b, attention_name(p->attention);
}
static const char *batch_of(const struct grid_point *p, point_text b) { return whole(b, p->batch); }
static const char *layers_of(const struct grid_point *p, point_text b) { return whole(b, p->layers); }
static const char *seq_len_of(const struct grid_point *p, point_text b) { return whole(b, p->seq_len); }
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
static const char *timeout_column(const struct grid_point *p, point_text b)
{
    snprintf(b, sizeof(point_text), "%.10g", p->job->timeout_s);
    return b;
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
/* The command as run, each word shell-quoted, with the sweep's threads. */
static const char *command_column(const struct grid_point *p, point_text b)
{
    static char text[8192];
    struct point_placeholders v = {.p = p, .threads = p->job->threads};
    (void)b;
    if (!p->job->command[0])
        return "";
    return command_quoted(p->job->command, p->job->shell, point_placeholder_value, &v, text, sizeof text);
}
static const char *optimizer_of(const struct grid_point *p, point_text b)
{
    return (void)b, optimizer_name(optimizer_resolved(p->axes.optimizer, p->device));
}
static const char *zero_grad_of(const struct grid_point *p, point_text b)
{
    return (void)b, zero_grad_name(p->axes.zero_grad);
}
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

/* The row's own parameters are spelt n, k, g, c: .name and .key are members. */
#define AXIS_OFF(type, f) offsetof(struct grid_point, axes.f)
#define FIELD_ROW(A, n, k, g, c, ...)                                                                             \
    {.name = #n, .key = SETTING_KEY_NAME(k), .point_off = SETTING_AXIS_OF(k, AXIS_OFF, 0),                     \
     .in_group_key = SETTING_IN_GROUP(g),                                                                        \
     .group_size = SETTING_GROUP_SIZE(g), .column = SETTING_COLUMN_ENUM(n, c), __VA_ARGS__},
static const struct point_field fields[] = {SETTING_ROWS(FIELD_ROW, _)};
#undef FIELD_ROW
enum { FIELD_COUNT = sizeof fields / sizeof fields[0] };

const struct point_field *point_field_at(int i) { return i >= 0 && i < FIELD_COUNT ? &fields[i] : NULL; }

const struct point_field *point_field_of_key(const char *key)
{
    for (int i = 0; i < FIELD_COUNT; i++)
        if (fields[i].key && strcmp(fields[i].key, key) == 0)
            return &fields[i];
    return NULL;
}

const struct point_field *point_field_of_column(enum peaks_column c)
{
    for (int i = 0; i < FIELD_COUNT; i++)
        if (fields[i].column == c)
            return &fields[i];
    return NULL;
}

/* A row without .value: the point's value of a list axis, or its key's
 * field in the point's job, a number written by the key's type (a
 * duration to the last bit, a size in bytes). */
static const char *job_value(const struct point_field *f, const struct grid_point *p, point_text b)
{
    const struct opt_row *k = f->key ? sweep_key_find(f->key) : NULL;
    const char *at = !k ? NULL : f->point_off ? (const char *)p + f->point_off : (const char *)p->job + k->off;
    switch (k ? k->type : OPT_CUSTOM) {
    case OPT_INT:
    case OPT_BOOL:
        return whole(b, *(const int *)at);
    case OPT_LONG:
        return whole(b, *(const long *)at);
    case OPT_INT64:
    case OPT_BYTES:
        return whole(b, *(const int64_t *)at);
    case OPT_DOUBLE:
    case OPT_DURATION:
        return double_text(*(const double *)at, b, sizeof(point_text));
    default:
        return ""; /* a row of another type has its .value (tests/point_fields_test.c) */
    }
}

int point_field_has_value(const struct point_field *f)
{
    const struct opt_row *k = f->key ? sweep_key_find(f->key) : NULL;
    return f->value || (k && (!(k->flags & OPT_LIST) || f->point_off) && k->type != OPT_CUSTOM && k->type != OPT_TEXT &&
                        k->type != OPT_ENUM && k->type != OPT_NAME && k->type != OPT_FLAG && k->type != OPT_SIZE_MIB);
}

int point_field_listed(const struct point_field *f, const struct sweep_job *job)
{
    const struct opt_row *k = f->key ? sweep_key_find(f->key) : NULL;
    return k && (k->flags & OPT_LIST) ? *(const int *)((const char *)job + k->count_off) : 1;
}

int point_field_applies(const struct point_field *f, const struct grid_point *p)
{
    return !f->applies || f->applies(p);
}

const char *point_field_value(const struct point_field *f, const struct grid_point *p, point_text buf)
{
    return f->value ? f->value(p, buf) : job_value(f, p, buf);
}

const char *point_field_text(const struct point_field *f, const struct grid_point *p, point_text buf)
{
    if (!point_field_applies(f, p) && f->off_text)
        return f->off_text;
    return point_field_value(f, p, buf);
}

const char *point_field_column_text(const struct point_field *f, const struct grid_point *p, point_text buf)
{
    if (point_field_applies(f, p) && f->column_text)
        return f->column_text(p, buf);
    return point_field_text(f, p, buf);
}

int point_field_passed(const struct point_field *f, const struct grid_point *p)
{
    const struct opt_row *k = f->key ? sweep_key_find(f->key) : NULL;
    return k && k->flag && point_field_applies(f, p) && !(f->uses & POINT_RUNNER_PASSES) &&
           (!f->passed_if || f->passed_if(p));
}

const struct point_field *point_field_of_placeholder(const char *name, size_t len)
{
    const char *row = command_placeholder_row(name, len);
    for (int i = 0; row && i < FIELD_COUNT; i++)
        if (!strcmp(fields[i].name, row))
            return &fields[i];
    return NULL;
}

const char *point_placeholder_value(void *ctx, const char *name, size_t len)
{
    struct point_placeholders *v = ctx;
    const struct point_field *f = point_field_of_placeholder(name, len);
    if (!f)
        return sweep_job_param(v->p->job, name, len);
    if (f->uses & POINT_RUNNER_PASSES)
        return whole(v->text, v->threads);
    return point_field_value(f, v->p, v->text);
}
