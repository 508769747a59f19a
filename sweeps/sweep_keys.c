/* sweep_keys.c: the key table, and one setter per value type. A new key is
 * one row here (and its field in struct sweep_job); a new type is one
 * setter and one line in each switch below. */
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sweeps/command_template.h"
#include "sweeps/device.h"
#include "sweeps/limits.h"
#include "sweeps/sweep_parser.h"
#include "sweeps/attention.h"
#include "sweeps/technique.h"
#include "util/input_file.h"
#include "util/parse.h"

#define FIELD(f) .off = offsetof(struct sweep_job, f), .size = sizeof(((struct sweep_job *)0)->f)
#define LIST(f, n, most) FIELD(f), .count_off = offsetof(struct sweep_job, n), .max_items = (most)

static const struct sweep_key keys[] = {
    {.name = "model", .type = KEY_MODELS, LIST(models, n_models, SWEEP_MAX_MODELS), .flag = "model",
     .no_default = "required",
     .help = "list of presets (%s) or paths to a Hugging Face `config.json`, or its folder, of a model of a "
             "family peakfit builds (relative to the sweep file)"},
    {.name = "device", .type = KEY_DEVICES, LIST(devices, n_devices, SWEEP_MAX_LIST), .flag = "device",
     .def_text = "cpu",
     .help = "list of %s (all but `cpu` only in a build against a libtorch that has them)"},
    {.name = "technique", .type = KEY_TECHNIQUES, LIST(techniques, n_techniques, SWEEP_MAX_LIST),
     .flag = "technique", .no_default = "required", .help = "list of %s"},
    {.name = "attention", .type = KEY_ATTENTIONS, LIST(attentions, n_attentions, SWEEP_MAX_LIST),
     .flag = "attention", .def_text = "sdpa",
     .help = "list of %s: `sdpa` keeps only the output and a logsumexp for backward (PyTorch 2's fused "
             "kernels, transformers' default), `eager` keeps the [b, heads, s, s] probabilities"},
    {.name = "batch", .type = KEY_COUNTS, LIST(batches, n_batches, SWEEP_MAX_LIST), .min = 1,
     .max = LIMIT_BATCH_MAX, .flag = "batch", .no_default = "required unless only `load`",
     .help = "list of micro-batch sizes, %s"},
    {.name = "seq_len", .type = KEY_COUNTS, LIST(seq_lens, n_seq_lens, SWEEP_MAX_LIST), .min = 1,
     .max = LIMIT_SEQ_LEN_MAX, .flag = "seq-len", .no_default = "required unless only `load`",
     .help = "list of sequence lengths, %s"},
    {.name = "steps", .type = KEY_INT, FIELD(steps), .min = 1, .max = LIMIT_STEPS_MAX, .def = DEFAULT_STEPS,
     .flag = "steps",
     .help = "training steps per point, %s; with `warm = 1` one is enough (with `warm = 0` AdamW allocates its "
             "state in the first step, so one step under-reports)"},
    {.name = "repeats", .type = KEY_INT, FIELD(repeats), .min = 1, .max = LIMIT_REPEATS_MAX,
     .def = DEFAULT_REPEATS, .help = "runs of each point, each in its own process, %s"},
    {.name = "timeout", .type = KEY_DURATION, FIELD(timeout_s), .max = 1000000000L, .def = DEFAULT_TIMEOUT_S,
     .help = "per point: `90`, `90s`, `15m`, `2h`"},
    {.name = "mem_limit", .type = KEY_SIZE_OR_NONE, FIELD(mem_limit), .def = 0, .flag = "mem-limit",
     .help = "per point: `512MiB`, `4GiB`, `none`; on cpu the RSS above the worker's baseline, on cuda what the "
             "caching allocator may reserve above its baseline (its memory fraction)"},
    {.name = "threads", .type = KEY_INT, FIELD(threads), .min = 0, .max = LIMIT_THREADS_MAX, .def = 0,
     .flag = "threads", .help = "libtorch intra-op threads, %s; 0 keeps libtorch's default"},
    {.name = "seed", .type = KEY_INT, FIELD(seed), .min = 0, .max = LIMIT_SEED_MAX, .def = 0, .flag = "seed",
     .help = "weight initialisation seed, %s"},
    {.name = "lora_rank", .type = KEY_INT, FIELD(lora_rank), .min = 1, .max = LIMIT_LORA_RANK_MAX,
     .def = DEFAULT_LORA_RANK, .flag = "lora-rank", .help = "LoRA rank r, %s"},
    {.name = "lora_targets", .type = KEY_LORA_TARGETS, FIELD(lora_targets), .def = DEFAULT_LORA_TARGETS,
     .flag = "lora-targets", .help = "projections with adapters: %s"},
    {.name = "weights", .type = KEY_PATH, FIELD(weights), .flag = "weights", .no_default = "random weights",
     .help = "a local `.safetensors` file with real weights (Hugging Face names; relative to the sweep file), a "
             "sharded checkpoint's `model.safetensors.index.json`, or a model folder holding either"},
    {.name = "holdout", .type = KEY_PAIRS, LIST(holdouts, n_holdouts, SWEEP_MAX_LIST), .min = 1,
     .max = LIMIT_BATCH_MAX, .no_default = "none",
     .help = "list of `BxS` points, batch x seq_len (`6x384, 3x128`), measured for each technique that runs "
             "steps but kept out of the fit: the report and fit.json give each one's predicted peak, interval "
             "and error; none may be in the job's batch x seq_len grid"},
    {.name = "warm", .type = KEY_INT, FIELD(warm), .min = 0, .max = 1, .def = DEFAULT_WARM, .flag = "warm",
     .help = "1: AdamW's state is made before the first step (zero-filled, as a resumed run holds it), so "
             "step 1 is a steady-state step and one step gives the peak; 0: the first step makes it, as a "
             "plain training loop does (one step then under-reports: use `steps = 2`)"},
    {.name = "jobs", .type = KEY_INT, FIELD(jobs), .min = 1, .max = 64, .def = 1,
     .help = "points measured at once, %s, each worker pinned to its share of the cores with its intra-op "
             "threads set to that share, started only when free memory holds its predicted peak; the "
             "largest of the jobs' values is the run's; `run -j N` overrides"},
    {.name = "command", .type = KEY_COMMAND, FIELD(command), .no_default = "peakfit's worker",
     .help = "a command run for each point instead of peakfit's worker, without a shell (docs/own-script.md); "
             "the placeholders %s become the point's values, each one whole argument"},
    {.name = "shell", .type = KEY_BOOL, FIELD(shell), .def = 0,
     .help = "`true`: the command is run by `/bin/sh -c`, each placeholder's value quoted for the shell; "
             "the rest of the text is the shell's (pipes, `$VARS`, `;`)"},
    {.name = "param.NAME", .type = KEY_PARAM, .no_default = "none",
     .help = "a value of the job's own for its command's `{param.NAME}` placeholder"},
};
enum { KEY_COUNT = sizeof keys / sizeof keys[0] };

const struct sweep_key *sweep_key_at(int i) { return i >= 0 && i < KEY_COUNT ? &keys[i] : NULL; }

const struct sweep_key *sweep_key_find(const char *name)
{
    size_t prefix = strlen(COMMAND_PARAM_PREFIX);
    for (int i = 0; i < KEY_COUNT; i++)
        if (strcmp(keys[i].name, name) == 0 ||
            (keys[i].type == KEY_PARAM && strncmp(name, COMMAND_PARAM_PREFIX, prefix) == 0))
            return &keys[i];
    return NULL;
}

const char *sweep_key_names(void)
{
    static char text[512];
    size_t used = 0;
    if (text[0])
        return text; /* built once */
    for (int i = 0; i < KEY_COUNT && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", i ? ", " : "", keys[i].name);
    return text;
}

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

static int set_technique(struct parser *p, const char *item, int index)
{
    int t = technique_from_name(item);
    if (t < 0)
        return parser_fail(p, "unknown technique \"%s\" (techniques: %s)", item, technique_names());
    p->job->techniques[index] = (pf_technique)t;
    return 0;
}

static int set_attention(struct parser *p, const char *item, int index)
{
    int a = attention_from_name(item);
    if (a < 0)
        return parser_fail(p, "unknown attention \"%s\" (attention: %s)", item, attention_names());
    p->job->attentions[index] = (pf_attention)a;
    return 0;
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
    case KEY_TECHNIQUES: return set_technique(p, item, index);
    case KEY_ATTENTIONS: return set_attention(p, item, index);
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

static int set_int(struct parser *p, const struct sweep_key *k, const char *value)
{
    long v;
    if (parse_long(value, k->min, k->max, &v) != 0)
        return parser_fail(p, "%s must be a whole number from %ld to %ld, not \"%s\"", k->name, k->min, k->max, value);
    if (k->size == sizeof(long))
        *(long *)field_of(p->job, k->off) = v;
    else
        *(int *)field_of(p->job, k->off) = (int)v;
    return 0;
}

static int set_duration(struct parser *p, const struct sweep_key *k, const char *value)
{
    double *out = field_of(p->job, k->off);
    if (parse_seconds(value, out) != 0 || *out <= 0 || *out > (double)k->max)
        return parser_fail(p, "%s must be a positive duration like 90, 90s, 15m or 2h, not \"%s\"", k->name, value);
    return 0;
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

static int set_lora_targets(struct parser *p, const struct sweep_key *k, const char *value)
{
    unsigned *out = field_of(p->job, k->off);
    *out = lora_targets_from_list(value);
    return *out ? 0 : parser_fail(p, "%s must list some of %s, not \"%s\"", k->name, lora_target_names(), value);
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
    case KEY_MODELS: case KEY_DEVICES: case KEY_TECHNIQUES: case KEY_ATTENTIONS: case KEY_COUNTS: case KEY_PAIRS:
        return set_list(p, k, value);
    case KEY_INT: return set_int(p, k, value);
    case KEY_DURATION: return set_duration(p, k, value);
    case KEY_SIZE_OR_NONE: return set_size_or_none(p, k, value);
    case KEY_LORA_TARGETS: return set_lora_targets(p, k, value);
    case KEY_PATH: return set_path(p, k, value);
    case KEY_COMMAND: return sweep_set_command(p, k, value);
    case KEY_BOOL: return sweep_set_bool(p, k, value);
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
    for (int i = 0; i < KEY_COUNT; i++) {
        const struct sweep_key *k = &keys[i];
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

/* --- the README's table ------------------------------------------------- */

/* "`a`, `b`" from "a, b". */
static void backticked(const char *list, char *out, size_t size)
{
    size_t used = 0;
    char copy[512], *items[64];
    snprintf(copy, sizeof copy, "%s", list);
    int n = split_list(copy, items, 64);
    out[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s`%s`", i ? ", " : "", items[i]);
}

static void choices(const struct sweep_key *k, char *out, size_t size)
{
    switch (k->type) {
    case KEY_MODELS: backticked(model_preset_names(), out, size); break;
    case KEY_DEVICES: backticked(device_names(), out, size); break;
    case KEY_TECHNIQUES: backticked(technique_names(), out, size); break;
    case KEY_ATTENTIONS: backticked(attention_names(), out, size); break;
    case KEY_LORA_TARGETS: backticked(lora_target_names(), out, size); break;
    case KEY_PAIRS: snprintf(out, size, "batch %ld … %ld", k->min, k->max); break;
    case KEY_COMMAND: backticked(command_placeholder_names(), out, size); break;
    default: snprintf(out, size, "%ld … %ld", k->min, k->max);
    }
}

static void default_text(const struct sweep_key *k, char *out, size_t size)
{
    char list[128];
    if (k->no_default)
        snprintf(out, size, "%s", k->no_default);
    else if (k->def_text)
        backticked(k->def_text, out, size);
    else if (k->type == KEY_DURATION)
        snprintf(out, size, "%g s", k->def);
    else if (k->type == KEY_BOOL)
        snprintf(out, size, "`%s`", k->def ? "true" : "false");
    else if (k->type == KEY_SIZE_OR_NONE && k->def == 0)
        snprintf(out, size, "none");
    else if (k->type == KEY_LORA_TARGETS) {
        lora_targets_to_list((unsigned)k->def, list, sizeof list);
        size_t used = 0;
        out[used++] = '`';
        for (const char *c = list; *c && used + 4 < size; c++) {
            out[used++] = *c;
            if (*c == ',')
                out[used++] = ' '; /* "q,v" reads "q, v" as in a sweep file */
        }
        out[used++] = '`';
        out[used] = '\0';
    } else
        snprintf(out, size, "%g", k->def);
}

void sweep_keys_worker_options(FILE *out)
{
    for (int i = 0; i < KEY_COUNT; i++)
        if (keys[i].flag)
            fprintf(out, "  --%-16s sweep key %s, one value (docs/sweeps.md)\n", keys[i].flag, keys[i].name);
    fprintf(out, "  --%-16s write the report to this descriptor (default: stdout)\n", "report-fd FD");
}

void sweep_keys_markdown(FILE *out)
{
    fprintf(out, "| key | value | default |\n|---|---|---|\n");
    for (int i = 0; i < KEY_COUNT; i++) {
        char what[512], def[128];
        choices(&keys[i], what, sizeof what);
        default_text(&keys[i], def, sizeof def);
        const char *mark = strstr(keys[i].help, "%s");
        int before = mark ? (int)(mark - keys[i].help) : (int)strlen(keys[i].help);
        fprintf(out, "| `%s` | %.*s%s%s | %s |\n", keys[i].name, before, keys[i].help, mark ? what : "",
                mark ? mark + 2 : "", def);
    }
}
