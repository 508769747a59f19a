/* sweep_key_set.c: the sweep file's own value types as the option engine's
 * OPT_CUSTOM setters (a model, a device, a BxS pair, a weights file: each
 * one value; the engine reads the lists) and the one call that sets a key
 * through its row. */
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

static void *field_of(void *target, const struct opt_row *row) { return (char *)target + row->off; }

/* Relative paths are relative to the sweep file (to the current directory
 * for the worker's options). */
static int resolve_path(const struct parser *p, const char *value, char *out, size_t size, char *why,
                        size_t why_size)
{
    char dir[SWEEP_LONG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", p->path ? p->path : ".");
    size_t n = value[0] == '/' || !p->path ? (size_t)snprintf(out, size, "%s", value)
                                           : (size_t)snprintf(out, size, "%s/%s", dirname(dir), value);
    return n < size ? 0 : opt_fail(why, why_size, "path %.60s... is longer than %zu bytes", value, size - 1);
}

/* --- a model ------------------------------------------------------------ */

/* The model's index in the sweep's list, added once however many jobs name it. */
static int add_model(struct parser *p, const struct model_spec *spec, char *why, size_t size)
{
    struct sweep *s = p->sweep;
    for (int i = 0; i < s->n_models; i++) {
        const struct model_spec *had = &s->models[i].spec;
        if (strcmp(had->source, spec->source) == 0 && had->config_hash == spec->config_hash)
            return i;
        if (strcmp(had->name, spec->name) == 0)
            return opt_fail(why, size, "model %s has the same name, \"%s\", as %s (line %d): point ids would mix them",
                            spec->source, spec->name, had->source, s->models[i].line);
    }
    struct sweep_model *bigger = realloc(s->models, (size_t)(s->n_models + 1) * sizeof *bigger);
    if (!bigger)
        return opt_fail(why, size, "out of memory for model %s", spec->name);
    s->models = bigger;
    s->models[s->n_models] = (struct sweep_model){.spec = *spec, .line = p->line};
    return s->n_models++;
}

SWEEP_SETTER(sweep_set_model)
{
    struct parser *p = ctx;
    char path[SWEEP_LONG_PATH_MAX];
    (void)display;
    if (!model_spec_is_path(value))
        snprintf(path, sizeof path, "%s", value);
    else if (resolve_path(p, value, path, sizeof path, why, size) != 0)
        return -1;
    if (model_spec_hub_id_problem(value, path, why, size) != 0)
        return -1;
    struct model_spec *spec = malloc(sizeof *spec); /* 4 KiB: not on the stack */
    if (!spec)
        return opt_fail(why, size, "out of memory for model %s", value);
    /* In a sweep file a name that is no preset, or the config.json of a
     * family peakfit does not build, may be a command job's label: the
     * job is checked when its section ends (sweep_parse.c); so is
     * whether its weights fit here, which depends on the job's depth
     * (sweep_job_model_check). */
    int loaded = model_spec_read(path, spec, why, size) == 0 ||
                 (p->path && (model_spec_label(value, spec) == 0 || model_spec_foreign(path, spec) == 0));
    int m = loaded ? add_model(p, spec, why, size) : -1;
    free(spec);
    if (m < 0)
        return -1;
    *(int *)field_of(target, row) = m;
    return 0;
}

/* --- a device, a pair --------------------------------------------------- */

SWEEP_SETTER(sweep_set_device)
{
    const struct parser *p = ctx;
    if (device_name_check(display, value, why, size) != 0)
        return -1;
    snprintf(field_of(target, row), row->size, "%s", value);
    ((struct sweep_job *)target)->device_line = p->line;
    return 0;
}

/* A technique of the table, or in a sweep file a label (core/technique.h):
 * the job is checked when its section ends (sweep_parse.c). */
SWEEP_SETTER(sweep_set_technique)
{
    const struct parser *p = ctx;
    int t = technique_from_name(value);
    if (t < 0 && p->path)
        t = technique_label(value);
    if (t < 0)
        return opt_name_value(&technique_option_names, display, value, &t, why, size); /* its message */
    *(pf_technique *)field_of(target, row) = (pf_technique)t;
    if (technique_is_label((pf_technique)t))
        ((struct sweep_job *)target)->technique_line = p->line;
    return 0;
}

/* "6x384": a batch in the row's range and a seq_len. */
SWEEP_SETTER(sweep_set_pair)
{
    char text[64], *x;
    long b, s;
    (void)ctx;
    snprintf(text, sizeof text, "%s", value);
    x = strchr(text, 'x');
    if (x)
        *x = '\0';
    if (!x || parse_long(trim(text), (long)row->min, (long)row->max, &b) != 0 ||
        parse_long(trim(x + 1), 1, LIMIT_SEQ_LEN_MAX, &s) != 0)
        return opt_fail(why, size, "%s must be batch x seq_len pairs like 6x384 (batch %.0f to %.0f, seq_len 1 to "
                        "%ld), not \"%s\"", display, row->min, row->max, (long)LIMIT_SEQ_LEN_MAX, value);
    *(struct sweep_pair *)field_of(target, row) = (struct sweep_pair){(int)b, (int)s};
    return 0;
}

/* --- a weights file ----------------------------------------------------- */
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
SWEEP_SETTER(sweep_set_weights)
{
    char path[SWEEP_LONG_PATH_MAX];
    (void)display;
    if (resolve_path(ctx, value, path, sizeof path, why, size) != 0)
        return -1;
    if (weights_in_folder(path, sizeof path) != 0)
        return opt_fail(why, size, "%s: the weights file's path is longer than %zu bytes", value, sizeof path - 1);
    FILE *f = input_file_open(path, "weights file", 0, why, size);
    if (!f)
        return -1;
    fclose(f);
    char *real = realpath(path, NULL);
    size_t n = real ? strlen(real) : 0;
    if (real && n < row->size)
        memcpy(field_of(target, row), real, n + 1);
    free(real);
    if (!real || n >= row->size)
        return opt_fail(why, size, "%s: cannot resolve the path, or it is longer than %zu bytes", path, row->size - 1);
    return 0;
}

/* --- a key, and the defaults -------------------------------------------- */

int sweep_key_set(struct parser *p, const struct opt_row *k, const char *display, const char *value)
{
    char why[1024];
    return opt_set_in(k, display, value, p->job, p, why, sizeof why) == 0 ? 0 : parser_fail(p, "%s", why);
}
