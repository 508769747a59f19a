/* sweep_parse.c: reads a sweep file line by line: sections, comments and
 * `key = value` lines; what a key's value means is the key table's business
 * (sweep_keys.c, the option engine's rows). Every error names the file and line, and nothing is
 * guessed: an unknown key, a duplicate key or a value out of range stops
 * the parse. Reading is bounded: only a regular file of at most
 * SWEEP_FILE_MAX_BYTES, and it stops at the first over-long line. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "models/param_count.h"
#include "sweeps/limits.h"
#include "sweeps/sweep_parser.h"
#include "core/technique.h"
#include "util/input_file.h"
#include "util/near_name.h"
#include "util/parse.h"

struct reader {
    struct parser p;
    struct sweep_job defaults;     /* [global], over the table's defaults */
    unsigned long long seen;       /* keys already set in this section, by row */
};

static int only_load(const struct sweep_job *j)
{
    for (int i = 0; i < j->n_techniques; i++)
        if (technique_runs_steps(j->techniques[i]))
            return 0;
    return 1;
}

/* A held-out point may not be one the fit uses. */
static int check_holdouts(struct reader *r)
{
    const struct sweep_job *j = r->p.job;
    for (int h = 0; h < j->n_holdouts; h++)
        for (int b = 0; b < j->n_batches; b++)
            for (int s = 0; s < j->n_seq_lens; s++)
                if (j->holdouts[h].batch == j->batches[b] && j->holdouts[h].seq_len == j->seq_lens[s])
                    return parser_fail(&r->p, "holdout %dx%d is also in the job's batch x seq_len grid: a point "
                                       "cannot be both fitted and held out", j->batches[b], j->seq_lens[s]);
    return 0;
}

/* A label (models/model_spec.h, core/technique.h) names a command job's
 * model or technique; peakfit's worker must build its model and run its
 * technique: today's message, at the key's line. */
static int check_labels(struct reader *r)
{
    const struct sweep_job *j = r->p.job;
    for (int i = 0; i < j->n_models && !j->command[0]; i++) {
        const struct sweep_model *m = &r->p.sweep->models[j->models[i]];
        struct model_spec spec;
        char why[512];
        if (!model_spec_is_label(&m->spec) || model_spec_load(m->spec.source, &spec, why, sizeof why) == 0)
            continue;
        r->p.line = m->line;
        return parser_fail(&r->p, "%s", why);
    }
    for (int i = 0; i < j->n_techniques && !j->command[0]; i++) {
        if (!technique_is_label(j->techniques[i]))
            continue;
        char why[512];
        int t;
        opt_name_value(&technique_option_names, "technique", technique_name(j->techniques[i]), &t, why, sizeof why);
        r->p.line = j->technique_line;
        return parser_fail(&r->p, "%s", why);
    }
    return 0;
}

/* Each model can be built here at the job's depth; a problem is the
 * model line's (the first that names it). A command job's label has no
 * config to check. */
static int check_models(struct reader *r)
{
    const struct sweep_job *j = r->p.job;
    char why[1200];
    for (int i = 0; i < j->n_models; i++) {
        const struct sweep_model *m = &r->p.sweep->models[j->models[i]];
        if (!model_spec_is_label(&m->spec) && sweep_job_model_check(r->p.sweep, j, i, why, sizeof why) != 0) {
            int saved = r->p.line;
            r->p.line = m->line;
            parser_fail(&r->p, "%s", why);
            r->p.line = saved;
            return -1;
        }
    }
    return 0;
}

/* A job is checked when its section ends: it must name all its axes. */
static int check_job(struct reader *r)
{
    const struct sweep_job *j = r->p.job;
    if (j == NULL || j == &r->defaults)
        return 0;
    int saved = r->p.line;
    if (check_labels(r) != 0)
        return -1; /* where a file with no such label would have stopped: the model's line */
    r->p.line = j->line;
    if (j->command[0] && j->n_seq_lens == 0) {
        /* A command job's model may have no sequence (an image model): its
         * points are at seq_len 1, a token is a sample, the fit per sample. */
        r->p.job->seq_lens[0] = 1;
        r->p.job->n_seq_lens = 1;
    }
    if (j->command[0] && j->n_techniques == 0) {
        /* Nor need it name a technique (a CNN's script, anyone's): a label,
         * as its model may be, that runs training steps. */
        r->p.job->techniques[0] = (pf_technique)technique_label(COMMAND_TECHNIQUE_DEFAULT);
        r->p.job->n_techniques = (int)r->p.job->techniques[0] >= 0;
    }
    const char *missing = j->n_models == 0 ? "model" : j->n_techniques == 0 ? "technique"
                        : only_load(j) ? NULL : j->n_batches == 0 ? "batch"
                        : j->n_seq_lens == 0 ? "seq_len" : NULL;
    int rc = missing ? parser_fail(&r->p, "job [%s] has no %s (set it here or in [global])", j->name, missing) : 0;
    if (rc == 0)
        rc = check_holdouts(r);
    r->p.line = saved;
    if (rc == 0)
        rc = check_models(r);
    if (rc == 0)
        rc = sweep_check_command(&r->p, j);
    return rc;
}

int sweep_job_name_valid(const char *name)
{
    return name[0] && strlen(name) < SWEEP_NAME_MAX &&
           strspn(name, SAFE_NAME_CHARS) == strlen(name);
}

static int start_section(struct reader *r, char *header)
{
    struct parser *p = &r->p;
    size_t n = strlen(header);
    if (header[n - 1] != ']' || n < 3)
        return parser_fail(p, "a section header is [name]");
    header[n - 1] = '\0';
    char *name = trim(header + 1);
    if (check_job(r) != 0)
        return -1;
    r->seen = 0;
    if (strcmp(name, "global") == 0) {
        if (p->sweep->n_jobs > 0 || p->job == &r->defaults)
            return parser_fail(p, "[global] must come once, before the first job");
        p->job = &r->defaults;
        return 0;
    }
    struct near_name near;
    near_name_start(&near, name);
    near_name_offer(&near, "global");
    if (near.best_distance <= 1) /* [globals], [Global]: not meant as a job */
        return parser_fail(p, "unknown section [%s]: did you mean [global]? (any other name is a job)", name);
    if (!sweep_job_name_valid(name))
        return parser_fail(p, "job name \"%s\" must be 1-%d letters, digits or _-.+", name, SWEEP_NAME_MAX - 1);
    for (int i = 0; i < p->sweep->n_jobs; i++)
        if (strcmp(p->sweep->jobs[i].name, name) == 0)
            return parser_fail(p, "job [%s] is defined twice", name);
    if (p->sweep->n_jobs == SWEEP_MAX_JOBS)
        return parser_fail(p, "too many jobs (at most %d)", SWEEP_MAX_JOBS);
    p->job = &p->sweep->jobs[p->sweep->n_jobs++];
    *p->job = r->defaults;
    snprintf(p->job->name, sizeof p->job->name, "%s", name);
    p->job->line = p->line;
    return 0;
}

/* The engine's "unknown key", with the key it most likely meant. */
static int unknown_key(struct parser *p, const char *key)
{
    char why[1400];
    opt_unknown_key(&sweep_key_table, key, why, sizeof why);
    return parser_fail(p, "%s", why);
}

static int read_assignment(struct reader *r, char *text)
{
    struct parser *p = &r->p;
    char *eq = strchr(text, '=');
    if (!eq)
        return parser_fail(p, OPT_NOT_KEY_VALUE, text);
    *eq = '\0';
    char *key = trim(text), *value = trim(eq + 1);
    if (!p->job)
        return parser_fail(p, "\"%s\" comes before any [section]", key);
    const struct opt_row *k = sweep_key_find(key);
    if (!k)
        return unknown_key(p, key);
    if (!value[0])
        return parser_fail(p, OPT_NO_VALUE, key);
    unsigned long long bit = 1ULL << (k - sweep_key_at(0));
    if (!sweep_key_is_param(k)) { /* one row, many names: its setter finds a name set twice */
        if (r->seen & bit)
            return parser_fail(p, OPT_GIVEN_TWICE, key);
        r->seen |= bit;
    }
    return sweep_key_set(p, k, key, value);
}

size_t sweep_comment_at(const char *text, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((text[i] == '#' || text[i] == ';') && (i == 0 || isspace((unsigned char)text[i - 1])))
            return i;
    return n;
}

static int read_line(struct reader *r, char *raw)
{
    raw[sweep_comment_at(raw, strlen(raw))] = '\0';
    char *text = trim(raw);
    if (text[0] == '\0')
        return 0;
    if (text[0] == '[')
        return start_section(r, text);
    return read_assignment(r, text);
}

/* Reads one line into buf (without its newline). Returns its length, -1 at
 * the end of the file, -2 for a line longer than SWEEP_LINE_MAX (not read
 * further), -3 for bytes that are not text. */
static int next_line(FILE *in, char *buf)
{
    int n = 0, c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n == SWEEP_LINE_MAX)
            return -2;
        if (c < 0x20 && c != '\t' && c != '\r')
            return -3;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    return c == EOF && n == 0 ? -1 : n;
}

static int parse_stream(struct reader *r, FILE *in)
{
    char line[SWEEP_LINE_MAX + 1];
    int rc = 0, n;
    while (rc == 0 && (n = next_line(in, line)) != -1) {
        r->p.line++;
        if (n == -2)
            rc = parser_fail(&r->p, "line is longer than %d characters", SWEEP_LINE_MAX);
        else if (n == -3)
            rc = parser_fail(&r->p, "binary data, not a text sweep file");
        else
            rc = read_line(r, line + (r->p.line == 1 ? input_file_bom(line) : 0));
    }
    if (rc == 0 && ferror(in))
        rc = parser_fail(&r->p, "cannot read the sweep file");
    if (rc == 0)
        rc = check_job(r);
    if (rc == 0 && r->p.sweep->n_jobs == 0)
        rc = parser_fail(&r->p, "empty grid: no [job] section");
    return rc;
}

void sweep_job_defaults(struct sweep_job *job)
{
    char err[256];
    struct parser p = {.job = job, .err = err, .errlen = sizeof err};
    memset(job, 0, sizeof *job);
    const struct opt_row *k;
    for (int i = 0; (k = sweep_key_at(i)); i++)
        if (k->def)
            sweep_key_set(&p, k, k->name, k->def); /* sweep_keys_test: every default is read */
    job->device_line = 0; /* the default is no line of the file */
}

struct sweep *sweep_load(const char *path, char *err, size_t errlen)
{
    FILE *in = input_file_open(path, "sweep file", SWEEP_FILE_MAX_BYTES, err, errlen);
    if (!in)
        return NULL;
    struct sweep *s = calloc(1, sizeof *s);
    struct reader *r = calloc(1, sizeof *r);
    int rc = -1;
    if (s && r && strlen(path) < sizeof s->path) {
        r->p = (struct parser){.path = path, .err = err, .errlen = errlen, .sweep = s};
        sweep_job_defaults(&r->defaults);
        snprintf(s->path, sizeof s->path, "%s", path);
        rc = parse_stream(r, in);
    } else
        snprintf(err, errlen, "%s: %s", path, s && r ? "path is too long" : "out of memory reading it");
    fclose(in);
    free(r);
    if (rc != 0) {
        sweep_free(s);
        return NULL;
    }
    return s;
}

struct sweep *sweep_new_point(void)
{
    struct sweep *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n_jobs = 1;
    sweep_job_defaults(&s->jobs[0]);
    snprintf(s->jobs[0].name, sizeof s->jobs[0].name, "point");
    return s;
}

int sweep_set(struct sweep *s, struct sweep_job *job, const char *key, const char *value, char *err, size_t errlen)
{
    struct parser p = {.err = err, .errlen = errlen, .sweep = s, .job = job};
    const struct opt_row *k = sweep_key_find(key);
    if (!k)
        return unknown_key(&p, key);
    struct opt_row one = *k;
    one.flags &= ~OPT_LIST;
    if (sweep_key_set(&p, &one, key, value) != 0)
        return -1;
    if (k->flags & OPT_LIST)
        *(int *)((char *)job + k->count_off) = 1;
    return 0;
}

const struct model_spec *sweep_job_model(const struct sweep *s, const struct sweep_job *job, int i)
{
    return &s->models[job->models[i]].spec;
}

pf_model_config sweep_job_config(const struct sweep *s, const struct sweep_job *job, int i, int layers)
{
    return pf_config_slice(&sweep_job_model(s, job, i)->config, layers);
}

/* One depth of the job's `layers` list: see sweep_job_model_check. */
static int depth_check(const struct sweep *s, const struct sweep_job *job, int i, int layers, char *why,
                       size_t whylen)
{
    const struct model_spec *m = sweep_job_model(s, job, i);
    pf_model_config c = sweep_job_config(s, job, i, layers);
    char fit[512];
    if (layers > m->config.num_layers)
        return snprintf(why, whylen, "layers = %d is more than %s's %lld decoder layers: a slice is at most the "
                        "whole model", layers, m->source, (long long)m->config.num_layers), -1;
    if (layers > 0 && job->weights[0])
        return snprintf(why, whylen, "layers = %d and weights together: a checkpoint holds every layer, so a "
                        "slice is built with random weights (its memory is the same); drop one of them",
                        layers), -1;
    if (model_weights_fit(&c, machine_memory_bytes(), fit, sizeof fit) != 0)
        return snprintf(why, whylen, "%s: %s%s", m->source, fit,
                        layers > 0 ? "" : " (`layers = N` builds a slice of N decoder layers)"), -1;
    return 0;
}

int sweep_job_model_check(const struct sweep *s, const struct sweep_job *job, int i, char *why, size_t whylen)
{
    for (int l = 0; l < job->n_layers; l++)
        if (depth_check(s, job, i, job->layers[l], why, whylen) != 0)
            return -1;
    return 0;
}

void sweep_free(struct sweep *s)
{
    if (s)
        free(s->models);
    free(s);
}
