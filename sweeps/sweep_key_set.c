/* sweep_key_set.c: one setter per value type, from a sweep file's text or a
 * worker option's, and every key's default set the same way. A new type is
 * one setter and one line in each switch below; its row is in sweep_keys.c. */
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/device.h"
#include "core/technique.h"
#include "sweeps/limits.h"
#include "sweeps/sweep_parser.h"
#include "util/input_file.h"
#include "util/options.h"
#include "util/parse.h"

int parser_fail(struct parser *p, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->path)
        snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->line > 0 ? p->line : 1, msg);
    else
        snprintf(p->err, p->errlen, "%s", msg);
    return -1;
}

static void *field_of(struct sweep_job *job, size_t off) { return (char *)job + off; }

/* Relative paths are relative to the sweep file (to the current directory
 * for the worker's options). */
static int resolve_path(struct parser *p, const char *value, char *out, size_t size)
{
    char dir[SWEEP_LONG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", p->path ? p->path : ".");
    size_t n = value[0] == '/' || !p->path ? (size_t)snprintf(out, size, "%s", value)
                                           : (size_t)snprintf(out, size, "%s/%s", dirname(dir), value);
    return n < size ? 0 : parser_fail(p, "path %.60s... is longer than %zu bytes", value, size - 1);
}

/* --- one setter per type ------------------------------------------------ */

static int add_model(struct parser *p, const struct model_spec *spec)
{
    struct sweep *s = p->sweep;
    for (int i = 0; i < s->n_models; i++) {
        const struct model_spec *had = &s->models[i].spec;
        if (strcmp(had->source, spec->source) == 0 && had->config_hash == spec->config_hash)
            return i;
        if (strcmp(had->name, spec->name) == 0)
            return parser_fail(p, "model %s has the same name, \"%s\", as %s (line %d): point ids would mix them",
                               spec->source, spec->name, had->source, s->models[i].line);
    }
    struct sweep_model *bigger = realloc(s->models, (size_t)(s->n_models + 1) * sizeof *bigger);
    if (!bigger)
        return parser_fail(p, "out of memory for model %s", spec->name);
    s->models = bigger;
    s->models[s->n_models] = (struct sweep_model){.spec = *spec, .line = p->line};
    return s->n_models++;
}

static int set_model(struct parser *p, const char *item, int index)
{
    char path[SWEEP_LONG_PATH_MAX], why[1024];
    if (!model_spec_is_path(item))
        snprintf(path, sizeof path, "%s", item);
    else if (resolve_path(p, item, path, sizeof path) != 0)
        return -1;
    if (model_spec_hub_id_problem(item, path, why, sizeof why) != 0)
        return parser_fail(p, "%s", why);
    struct model_spec *spec = malloc(sizeof *spec); /* 4 KiB: not on the stack */
    if (!spec)
        return parser_fail(p, "out of memory for model %s", item);
    int m = model_spec_load(path, spec, why, sizeof why) == 0 ? add_model(p, spec) : parser_fail(p, "%s", why);
    free(spec);
    if (m < 0)
        return -1;
    for (int j = 0; j < index; j++)
        if (p->job->models[j] == m)
            return parser_fail(p, "model lists %s twice", p->sweep->models[m].spec.source);
    p->job->models[index] = m;
    return 0;
}

static int set_device(struct parser *p, const char *item, int index)
{
    if (!device_name_is_known(item))
        return parser_fail(p, "unknown device \"%s\" (devices: %s)", item, device_names());
    snprintf(p->job->devices[index], sizeof p->job->devices[index], "%s", item);
    p->job->device_line = p->line;
    return 0;
}

/* A technique or an attention: a name from the row's table, the one
 * name-to-value setter of the option engine (util/options.h). */
static int set_named(struct parser *p, const struct sweep_key *k, const char *item, int index)
{
    char why[700];
    int *out = field_of(p->job, k->off);
    return opt_name_value(k->names, k->name, item, &out[index], why, sizeof why) == 0 ? 0 : parser_fail(p, "%s", why);
}

static int set_count(struct parser *p, const struct sweep_key *k, const char *item, int index)
{
    long v;
    int *out = field_of(p->job, k->off);
    if (parse_long(item, k->min, k->max, &v) != 0)
        return parser_fail(p, "%s must be whole numbers from %ld to %ld, not \"%s\"", k->name, k->min, k->max, item);
    out[index] = (int)v;
    for (int j = 0; j < index; j++)
        if (out[j] == out[index])
            return parser_fail(p, "%s lists %d twice", k->name, out[index]);
    return 0;
}

/* "6x384": a batch and a seq_len; distinct within the list. */
static int set_pair(struct parser *p, const struct sweep_key *k, const char *item, int index)
{
    char text[64], *x;
    long b, s;
    struct sweep_pair *out = field_of(p->job, k->off);
    snprintf(text, sizeof text, "%s", item);
    x = strchr(text, 'x');
    if (x)
        *x = '\0';
    if (!x || parse_long(trim(text), k->min, k->max, &b) != 0 || parse_long(trim(x + 1), 1, LIMIT_SEQ_LEN_MAX, &s) != 0)
        return parser_fail(p, "%s must be batch x seq_len pairs like 6x384 (batch %ld to %ld, seq_len 1 to %ld), "
                           "not \"%s\"", k->name, k->min, k->max, (long)LIMIT_SEQ_LEN_MAX, item);
    out[index] = (struct sweep_pair){(int)b, (int)s};
    for (int j = 0; j < index; j++)
        if (out[j].batch == b && out[j].seq_len == s)
            return parser_fail(p, "%s lists %ldx%ld twice", k->name, b, s);
    return 0;
}

static int set_item(struct parser *p, const struct sweep_key *k, const char *item, int index)
{
    switch (k->type) {
    case KEY_MODELS: return set_model(p, item, index);
    case KEY_DEVICES: return set_device(p, item, index);
    case KEY_NAMES: return set_named(p, k, item, index);
    case KEY_PAIRS: return set_pair(p, k, item, index);
    default: return set_count(p, k, item, index);
    }
}

static int set_list(struct parser *p, const struct sweep_key *k, char *value)
{
    char *items[SWEEP_MAX_LIST];
    int n = split_list(value, items, k->max_items);
    if (n < 0)
        return parser_fail(p, "%s needs 1 to %d comma-separated values, none of them empty", k->name, k->max_items);
    /* A value listed twice would be two points with one id. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(items[i], items[j]) == 0)
                return parser_fail(p, "%s lists \"%s\" twice", k->name, items[i]);
    for (int i = 0; i < n; i++)
        if (set_item(p, k, items[i], i) != 0)
            return -1;
    *(int *)field_of(p->job, k->count_off) = n;
    return 0;
}

/* A whole number, a duration, a bool or LoRA targets: the option engine's
 * setter (util/options.h), as for a command's options. */
static int set_typed(struct parser *p, const struct sweep_key *k, const char *value)
{
    enum opt_type type = k->type == KEY_DURATION       ? OPT_DURATION
                         : k->type == KEY_BOOL         ? OPT_BOOL
                         : k->type == KEY_LORA_TARGETS ? OPT_CUSTOM
                         : k->size == sizeof(long)     ? OPT_LONG
                                                       : OPT_INT;
    struct opt_row row = {.name = k->name, .type = type, .off = k->off, .min = (double)k->min, .max = (double)k->max,
                          .set = lora_targets_option_set};
    char why[700];
    return opt_set(&row, k->name, value, p->job, why, sizeof why) == 0 ? 0 : parser_fail(p, "%s", why);
}

static int set_size_or_none(struct parser *p, const struct sweep_key *k, const char *value)
{
    int64_t *out = field_of(p->job, k->off);
    if (strcmp(value, "none") == 0)
        return (*out = 0, 0);
    if (parse_bytes(value, out) != 0 || *out <= 0)
        return parser_fail(p, "%s must be a size like 512MiB or 4GiB, or none, not \"%s\"", k->name, value);
    return 0;
}


/* A model folder as downloaded from the Hub stands for its sharded
 * checkpoint's index (model.safetensors.index.json) when it has one, else
 * for its model.safetensors. Returns 0, or -1 when the name is too long. */
static int weights_in_folder(char *path, size_t size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    size_t n = strlen(path);
    const char *sep = n && path[n - 1] == '/' ? "" : "/";
    char index[SWEEP_LONG_PATH_MAX];
    if (snprintf(index, sizeof index, "%s%smodel.safetensors.index.json", path, sep) >= (int)sizeof index)
        return -1;
    const char *name = access(index, F_OK) == 0 ? "model.safetensors.index.json" : "model.safetensors";
    return snprintf(path + n, size - n, "%s%s", sep, name) >= (int)(size - n) ? -1 : 0;
}

/* A regular file (a FIFO would hang the worker), or a model folder,
 * stored canonical so that however the path is typed, the point is the
 * same. */
static int set_path(struct parser *p, const struct sweep_key *k, const char *value)
{
    char path[SWEEP_LONG_PATH_MAX], why[SWEEP_LONG_PATH_MAX + 128];
    if (resolve_path(p, value, path, sizeof path) != 0)
        return -1;
    if (weights_in_folder(path, sizeof path) != 0)
        return parser_fail(p, "%s: the weights file's path is longer than %zu bytes", value, sizeof path - 1);
    FILE *f = input_file_open(path, "weights file", 0, why, sizeof why);
    if (!f)
        return parser_fail(p, "%s", why);
    fclose(f);
    char *real = realpath(path, NULL);
    size_t n = real ? strlen(real) : 0;
    if (real && n < k->size)
        memcpy(field_of(p->job, k->off), real, n + 1);
    free(real);
    if (!real || n >= k->size)
        return parser_fail(p, "%s: cannot resolve the path, or it is longer than %zu bytes", path, k->size - 1);
    return 0;
}

int sweep_key_set(struct parser *p, const struct sweep_key *k, char *value)
{
    switch (k->type) {
    case KEY_MODELS: case KEY_DEVICES: case KEY_NAMES: case KEY_COUNTS: case KEY_PAIRS:
        return set_list(p, k, value);
    case KEY_INT: case KEY_DURATION: case KEY_BOOL: case KEY_LORA_TARGETS: return set_typed(p, k, value);
    case KEY_SIZE_OR_NONE: return set_size_or_none(p, k, value);
    case KEY_PATH: return set_path(p, k, value);
    case KEY_COMMAND: return sweep_set_command(p, k, value);
    case KEY_PARAM: return parser_fail(p, "%s is set through sweep_set_param", k->name);
    case KEY_TYPE_COUNT: break;
    }
    return parser_fail(p, "key %s has no type", k->name);
}

/* --- defaults ----------------------------------------------------------- */

void sweep_job_defaults(struct sweep_job *job)
{
    memset(job, 0, sizeof *job);
    struct parser p = {.job = job, .err = (char[256]){0}, .errlen = 256};
    const struct sweep_key *k;
    for (int i = 0; (k = sweep_key_at(i)); i++) {
        void *field = field_of(job, k->off);
        switch (k->type) {
        case KEY_INT: case KEY_BOOL:
            if (k->size == sizeof(long)) *(long *)field = (long)k->def;
            else *(int *)field = (int)k->def;
            break;
        case KEY_DURATION: *(double *)field = k->def; break;
        case KEY_SIZE_OR_NONE: *(int64_t *)field = (int64_t)k->def; break;
        case KEY_LORA_TARGETS: *(unsigned *)field = (unsigned)k->def; break;
        default:
            if (k->def_text) {
                char text[128];
                snprintf(text, sizeof text, "%s", k->def_text);
                sweep_key_set(&p, k, text);
            }
        }
    }
    job->device_line = 0; /* the default is no line of the file */
}
