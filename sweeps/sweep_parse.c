/* sweep_parse.c: reads a sweep file line by line. Every error names the
 * file and line, and nothing is guessed: an unknown key, a duplicate key or
 * a value out of range stops the parse. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/model_spec.h"
#include "sweeps/sweep.h"
#include "sweeps/technique.h"
#include "util/parse.h"

struct parser {
    const char *path;
    int line;
    char *err;
    size_t errlen;
    struct sweep *sweep;
    struct sweep_job defaults;
    struct sweep_job *job;      /* section being read; &defaults in [global] */
    char seen[32][32];          /* keys already set in this section */
    int n_seen;
};

static int fail(struct parser *p, const char *fmt, const char *what)
{
    char msg[640];
    snprintf(msg, sizeof msg, fmt, what);
    snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->line > 0 ? p->line : 1, msg);
    return -1;
}

static const struct sweep_job built_in_defaults = {
    .devices = {"cpu"}, .n_devices = 1, .steps = 2, .repeats = 1, .timeout_s = 600,
    .lora_rank = 8, .lora_targets = PF_LORA_Q | PF_LORA_V,
};

/* Relative model and weight paths are relative to the sweep file. */
static void resolve_path(const struct parser *p, const char *value, char *out)
{
    char dir_copy[SWEEP_PATH_MAX];
    snprintf(dir_copy, sizeof dir_copy, "%s", p->path);
    if (value[0] == '/')
        snprintf(out, SWEEP_PATH_MAX, "%s", value);
    else
        snprintf(out, SWEEP_PATH_MAX, "%s/%s", dirname(dir_copy), value);
}

static int set_models(struct parser *p, char **items, int n)
{
    for (int i = 0; i < n; i++) {
        char *model = p->job->models[i];
        if (model_spec_is_path(items[i]))
            resolve_path(p, items[i], model);
        else
            snprintf(model, SWEEP_PATH_MAX, "%s", items[i]);
        pf_model_config config;
        char why[600];
        if (model_spec_resolve(model, &config, why, sizeof why) != 0)
            return fail(p, "%s", why);
    }
    p->job->n_models = n;
    return 0;
}

static int set_devices(struct parser *p, char **items, int n)
{
    for (int i = 0; i < n; i++) {
        if (strcmp(items[i], "cpu") && strcmp(items[i], "cuda") && strcmp(items[i], "mps"))
            return fail(p, "unknown device \"%s\" (devices: cpu, cuda, mps)", items[i]);
        if (!pf_device_available(items[i]))
            return fail(p, "device %s is not available in this build of libtorch "
                        "(rebuild with make LIBTORCH=/path/to/a/libtorch that has it)", items[i]);
        snprintf(p->job->devices[i], sizeof p->job->devices[i], "%s", items[i]);
    }
    p->job->n_devices = n;
    return 0;
}

static int set_techniques(struct parser *p, char **items, int n)
{
    for (int i = 0; i < n; i++) {
        int t = technique_from_name(items[i]);
        if (t < 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown technique \"%s\" (techniques: %s)", items[i], technique_names());
            return fail(p, "%s", msg);
        }
        p->job->techniques[i] = (pf_technique)t;
    }
    p->job->n_techniques = n;
    return 0;
}

static int set_counts(struct parser *p, const char *key, char **items, int n, int *out, int *n_out)
{
    for (int i = 0; i < n; i++) {
        long v;
        if (parse_long(items[i], 1, 1000000, &v) != 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "%s must be whole numbers from 1 to 1000000, not \"%s\"", key, items[i]);
            return fail(p, "%s", msg);
        }
        out[i] = (int)v;
        for (int j = 0; j < i; j++)
            if (out[j] == out[i]) {
                char msg[300];
                snprintf(msg, sizeof msg, "%s lists %d twice", key, out[i]);
                return fail(p, "%s", msg);
            }
    }
    *n_out = n;
    return 0;
}

static int set_number(struct parser *p, const char *key, const char *value, long min, long max, long *out)
{
    if (parse_long(value, min, max, out) == 0)
        return 0;
    char msg[300];
    snprintf(msg, sizeof msg, "%s must be a whole number from %ld to %ld, not \"%s\"", key, min, max, value);
    return fail(p, "%s", msg);
}

static int set_scalar(struct parser *p, const char *key, const char *value)
{
    struct sweep_job *j = p->job;
    long v;
    if (strcmp(key, "steps") == 0)
        return set_number(p, key, value, 1, 1000, &v) ? -1 : (j->steps = (int)v, 0);
    if (strcmp(key, "repeats") == 0)
        return set_number(p, key, value, 1, 1000, &v) ? -1 : (j->repeats = (int)v, 0);
    if (strcmp(key, "threads") == 0)
        return set_number(p, key, value, 0, 4096, &v) ? -1 : (j->threads = (int)v, 0);
    if (strcmp(key, "seed") == 0)
        return set_number(p, key, value, 0, 2147483647L, &j->seed);
    if (strcmp(key, "lora_rank") == 0)
        return set_number(p, key, value, 1, 65536, &v) ? -1 : (j->lora_rank = (int)v, 0);
    if (strcmp(key, "timeout") == 0)
        return (parse_seconds(value, &j->timeout_s) || j->timeout_s <= 0)
            ? fail(p, "timeout must be a positive duration like 90, 90s, 15m or 2h, not \"%s\"", value) : 0;
    if (strcmp(key, "mem_limit") == 0) {
        if (strcmp(value, "none") == 0)
            return (j->mem_limit = 0, 0);
        return (parse_bytes(value, &j->mem_limit) || j->mem_limit <= 0)
            ? fail(p, "mem_limit must be a size like 512MiB or 4GiB, or none, not \"%s\"", value) : 0;
    }
    if (strcmp(key, "lora_targets") == 0) {
        j->lora_targets = lora_targets_from_list(value);
        return j->lora_targets ? 0
            : fail(p, "lora_targets must list some of q, k, v, o, gate, up, down, not \"%s\"", value);
    }
    if (strcmp(key, "weights") == 0) {
        resolve_path(p, value, j->weights);
        FILE *f = fopen(j->weights, "rb");
        if (!f)
            return fail(p, "cannot open weights file %s", j->weights);
        fclose(f);
        return 0;
    }
    return fail(p, "unknown key \"%s\" (keys: model, device, technique, batch, seq_len, steps, "
                "repeats, timeout, mem_limit, threads, seed, lora_rank, lora_targets, weights)", key);
}

static int set_key(struct parser *p, const char *key, char *value)
{
    char *items[SWEEP_MAX_LIST];
    int is_list = !strcmp(key, "model") || !strcmp(key, "device") || !strcmp(key, "technique") ||
                  !strcmp(key, "batch") || !strcmp(key, "seq_len");
    if (!is_list)
        return set_scalar(p, key, value);
    int max = strcmp(key, "model") == 0 ? SWEEP_MAX_MODELS : SWEEP_MAX_LIST;
    int n = split_list(value, items, max);
    if (n < 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s needs 1 to %d comma-separated values, none of them empty", key, max);
        return fail(p, "%s", msg);
    }
    /* A value listed twice would be two points with one id. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(items[i], items[j]) == 0) {
                char msg[300];
                snprintf(msg, sizeof msg, "%s lists \"%s\" twice", key, items[i]);
                return fail(p, "%s", msg);
            }
    if (strcmp(key, "model") == 0) return set_models(p, items, n);
    if (strcmp(key, "device") == 0) return set_devices(p, items, n);
    if (strcmp(key, "technique") == 0) return set_techniques(p, items, n);
    if (strcmp(key, "batch") == 0) return set_counts(p, key, items, n, p->job->batches, &p->job->n_batches);
    return set_counts(p, key, items, n, p->job->seq_lens, &p->job->n_seq_lens);
}

static int only_load(const struct sweep_job *j)
{
    for (int i = 0; i < j->n_techniques; i++)
        if (j->techniques[i] != PF_TECH_LOAD)
            return 0;
    return 1;
}

/* A job is checked when its section ends: it must name all its axes. */
static int check_job(struct parser *p)
{
    const struct sweep_job *j = p->job;
    if (j == NULL || j == &p->defaults)
        return 0;
    int saved = p->line;
    p->line = j->line;
    const char *missing = j->n_models == 0 ? "model" : j->n_techniques == 0 ? "technique"
                        : only_load(j) ? NULL : j->n_batches == 0 ? "batch"
                        : j->n_seq_lens == 0 ? "seq_len" : NULL;
    int rc = missing ? fail(p, "job has no %s (set it here or in [global])", missing) : 0;
    p->line = saved;
    return rc;
}

static int start_section(struct parser *p, char *header)
{
    size_t n = strlen(header);
    if (header[n - 1] != ']' || n < 3)
        return fail(p, "%s", "a section header is [name]");
    header[n - 1] = '\0';
    char *name = trim(header + 1);
    if (check_job(p) != 0)
        return -1;
    p->n_seen = 0;
    if (strcmp(name, "global") == 0) {
        if (p->sweep->n_jobs > 0 || p->job == &p->defaults)
            return fail(p, "%s", "[global] must come once, before the first job");
        p->job = &p->defaults;
        return 0;
    }
    if (strlen(name) >= SWEEP_NAME_MAX || strspn(name, "abcdefghijklmnopqrstuvwxyz"
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+") != strlen(name) || !name[0])
        return fail(p, "job name \"%s\" must be 1-63 letters, digits or _-.+", name);
    for (int i = 0; i < p->sweep->n_jobs; i++)
        if (strcmp(p->sweep->jobs[i].name, name) == 0)
            return fail(p, "job [%s] is defined twice", name);
    if (p->sweep->n_jobs == SWEEP_MAX_JOBS)
        return fail(p, "%s", "too many jobs (at most 64)");
    p->job = &p->sweep->jobs[p->sweep->n_jobs++];
    *p->job = p->defaults;
    snprintf(p->job->name, sizeof p->job->name, "%s", name);
    p->job->line = p->line;
    return 0;
}

static int read_assignment(struct parser *p, char *text)
{
    char *eq = strchr(text, '=');
    if (!eq)
        return fail(p, "expected key = value, got \"%s\"", text);
    *eq = '\0';
    char *key = trim(text), *value = trim(eq + 1);
    if (!p->job)
        return fail(p, "\"%s\" comes before any [section]", key);
    if (!value[0])
        return fail(p, "%s has no value", key);
    for (int i = 0; i < p->n_seen; i++)
        if (strcmp(p->seen[i], key) == 0)
            return fail(p, "%s is set twice in this section", key);
    if (p->n_seen < 32 && strlen(key) < 32)
        strcpy(p->seen[p->n_seen++], key);
    return set_key(p, key, value);
}

static int read_line(struct parser *p, char *raw)
{
    char *text = trim(raw);
    if (text[0] == '\0' || text[0] == '#' || text[0] == ';')
        return 0;
    if (text[0] == '[')
        return start_section(p, text);
    return read_assignment(p, text);
}

static int is_text(const char *line, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return 0;
    }
    return 1;
}

static int parse_stream(struct parser *p, FILE *in)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&line, &cap, in)) >= 0) {
        p->line++;
        if (n > 4096)
            rc = fail(p, "%s", "line is longer than 4096 characters");
        else if (!is_text(line, (size_t)n))
            rc = fail(p, "%s", "binary data, not a text sweep file");
        else
            rc = read_line(p, line);
    }
    free(line);
    if (rc == 0)
        rc = check_job(p);
    if (rc == 0 && p->sweep->n_jobs == 0)
        rc = fail(p, "%s", "empty grid: no [job] section");
    return rc;
}

struct sweep *sweep_load(const char *path, char *err, size_t errlen)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, errlen, "%s: cannot open sweep file", path);
        return NULL;
    }
    struct sweep *s = calloc(1, sizeof *s);
    struct parser p = {.path = path, .err = err, .errlen = errlen, .sweep = s,
                       .defaults = built_in_defaults};
    snprintf(s->path, sizeof s->path, "%s", path);
    int rc = parse_stream(&p, in);
    fclose(in);
    if (rc != 0) {
        free(s);
        return NULL;
    }
    return s;
}
