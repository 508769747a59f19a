/* grid.c: the Cartesian product of each job's axes, counted before it is
 * made, with a point that two jobs share kept once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "point/grid.h"
#include "point/point_fields.h"
#include "sweeps/limits.h"
#include "core/attention.h"
#include "core/technique.h"
#include "util/exit_status.h"
#include "util/hash.h"

enum { SETTINGS_MAX = 2 * SWEEP_LONG_PATH_MAX + 512 };

/* --- the list axes of the settings table (JOB_AXIS, JOB_TRAIN rows) ------ */

/* The combinations of a point's list axes: the product of each axis's
 * count, where the axis matters to the point (a LoRA rank does not to
 * full training: its one text there is off_text, so it counts once). */
static long long axes_count(const struct grid_point *base)
{
    long long n = 1;
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++)
        if (f->point_off && point_field_applies(f, base))
            n *= point_field_listed(f, base->job);
    return n;
}

/* Sets p's axes to the combination numbered c (mixed radix over the
 * axes that matter to p, the first value of each other). */
static void axes_at(struct grid_point *p, long long c)
{
    const struct sweep_job *j = p->job;
    p->axes = job_axes_first(j);
#define PICK(type, name)                                                                                       \
    if (point_field_applies(point_field_of_key(#name), p)) {                                                  \
        p->axes.name = j->name[c % j->n_##name];                                                              \
        c /= j->n_##name;                                                                                     \
    }
    SETTING_AXES(PICK)
#undef PICK
}

static long long job_count(const struct sweep_job *j)
{
    long long per_model_device = 0;
    for (int t = 0; t < j->n_techniques; t++) {
        struct grid_point base = {.job = j, .technique = j->techniques[t]};
        per_model_device += axes_count(&base) * (technique_runs_steps(j->techniques[t])
            ? (long long)j->n_attentions * (j->n_seq_lens * j->n_batches + j->n_holdouts) : 1);
    }
    return (long long)j->n_models * j->n_devices * j->n_layers * per_model_device * j->repeats;
}

long long grid_count(const struct sweep *sweep)
{
    long long n = 0;
    for (int i = 0; i < sweep->n_jobs; i++)
        n += job_count(&sweep->jobs[i]);
    return n;
}

void grid_point_settings(const struct grid_point *p, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)) && used < size; i++) {
        point_text buf;
        if (f->uses & POINT_SETTINGS)
            used += (size_t)snprintf(out + used, size - used, "%s%s=%s", used ? ";" : "", f->name,
                                     point_field_text(f, p, buf));
    }
}

/* What changes the memory is in the id, so a resumed run never takes a row
 * measured under other settings for its own: the rows with an id_prefix,
 * in the table's order. */
static void make_id(struct grid_point *p)
{
    size_t used = 0;
    p->id[0] = '\0';
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)) && used < sizeof p->id; i++) {
        point_text buf;
        if (!f->id_prefix || (!(f->uses & POINT_ID_ALWAYS) && !point_field_applies(f, p)) ||
            ((f->uses & POINT_ID_IF_LISTED) && point_field_listed(f, p->job) < 2))
            continue;
        used += (size_t)snprintf(p->id + used, sizeof p->id - used, "%s%s", f->id_prefix, point_field_value(f, p, buf));
    }
    for (char *c = p->id; *c; c++)
        *c = *c == ',' ? '+' : *c; /* ids stay free of CSV's separator (LoRA's q,v: q+v) */
}

/* --- a point shared by two jobs is measured once ------------------------- */

struct dedupe {
    int *slots;          /* open addressing over point indices; -1: empty */
    size_t mask;
    struct shared_pair { const struct sweep_job *kept, *dropped; long long n; } *pairs;
    int n_pairs;
    char *a, *b;         /* two settings buffers */
};

static uint64_t point_key(const struct grid_point *p, char *buf)
{
    grid_point_settings(p, buf, SETTINGS_MAX);
    size_t n = strlen(buf);
    snprintf(buf + n, SETTINGS_MAX - n, ";repeat=%d", p->repeat);
    return hash_bytes(buf, strlen(buf), hash_start());
}

static int note_shared(struct dedupe *d, const struct sweep_job *kept, const struct sweep_job *dropped)
{
    for (int i = 0; i < d->n_pairs; i++)
        if (d->pairs[i].kept == kept && d->pairs[i].dropped == dropped)
            return (d->pairs[i].n++, 0);
    struct shared_pair *bigger = realloc(d->pairs, (size_t)(d->n_pairs + 1) * sizeof *bigger);
    if (!bigger)
        return -1;
    d->pairs = bigger;
    d->pairs[d->n_pairs++] = (struct shared_pair){kept, dropped, 1};
    return 0;
}

/* Adds the point unless an earlier one has the same settings. Returns 0,
 * or -1 when out of memory. */
static int add_point(struct grid *g, struct dedupe *d, const struct grid_point *p)
{
    size_t slot = (size_t)point_key(p, d->a) & d->mask;
    for (; d->slots[slot] >= 0; slot = (slot + 1) & d->mask) {
        const struct grid_point *had = &g->points[d->slots[slot]];
        point_key(had, d->b);
        if (strcmp(d->a, d->b) == 0)
            return note_shared(d, had->job, p->job);
    }
    d->slots[slot] = g->n;
    g->points[g->n] = *p;
    make_id(&g->points[g->n++]);
    return 0;
}

/* One technique's points: a technique without steps has no batch or sequence. */
static int add_technique(struct grid *g, struct dedupe *d, const struct grid_point *base)
{
    const struct sweep_job *j = base->job;
    int steps = technique_runs_steps(base->technique);
    for (int s = 0; s < (steps ? j->n_seq_lens : 1); s++)
        for (int b = 0; b < (steps ? j->n_batches : 1); b++)
            for (int r = 0; r < j->repeats; r++) {
                struct grid_point p = *base;
                p.seq_len = steps ? j->seq_lens[s] : 0;
                p.batch = steps ? j->batches[b] : 0;
                p.repeat = r;
                if (add_point(g, d, &p) != 0)
                    return -1;
            }
    for (int h = 0; steps && h < j->n_holdouts; h++)
        for (int r = 0; r < j->repeats; r++) {
            struct grid_point p = *base;
            p.batch = j->holdouts[h].batch;
            p.seq_len = j->holdouts[h].seq_len;
            p.repeat = r;
            p.holdout = 1;
            if (add_point(g, d, &p) != 0)
                return -1;
        }
    return 0;
}

/* Each combination of the list axes' values, each with its points. */
static int add_axes(struct grid *g, struct dedupe *d, const struct grid_point *base)
{
    long long n = axes_count(base);
    for (long long c = 0; c < n; c++) {
        struct grid_point p = *base;
        axes_at(&p, c);
        if (add_technique(g, d, &p) != 0)
            return -1;
    }
    return 0;
}

static int add_job(const struct sweep *sweep, const struct sweep_job *j, struct grid *g, struct dedupe *d)
{
    for (int m = 0; m < j->n_models; m++) {
        const struct model_spec *spec = sweep_job_model(sweep, j, m);
        for (int dev = 0; dev < j->n_devices; dev++)
            for (int l = 0; l < j->n_layers; l++)
                for (int t = 0; t < j->n_techniques; t++)
                    for (int a = 0; a < (technique_runs_steps(j->techniques[t]) ? j->n_attentions : 1); a++) {
                        struct grid_point base = {.job = j, .model = spec->name, .model_source = spec->source,
                                                  .config_hash = spec->config_hash, .device = j->devices[dev],
                                                  .layers = j->layers[l], .technique = j->techniques[t],
                                                  .attention = j->attentions[a]};
                        if (add_axes(g, d, &base) != 0)
                            return -1;
                    }
    }
    return 0;
}

static int write_warnings(const struct sweep *sweep, const struct dedupe *d, struct grid *g)
{
    if (d->n_pairs == 0)
        return 0;
    size_t size = (size_t)d->n_pairs * (strlen(sweep->path) + 2 * SWEEP_NAME_MAX + 160), used = 0;
    g->warnings = malloc(size);
    if (!g->warnings)
        return -1;
    for (int i = 0; i < d->n_pairs; i++) {
        const struct shared_pair *s = &d->pairs[i];
        used += (size_t)snprintf(g->warnings + used, size - used,
                                 "peakfit: warning: %s:%d: job [%s] repeats %lld point%s of job [%s] (line %d); "
                                 "each is measured once\n", sweep->path, s->dropped->line, s->dropped->name, s->n,
                                 s->n == 1 ? "" : "s", s->kept->name, s->kept->line);
    }
    return 0;
}

static int expand(const struct sweep *sweep, long long count, struct grid *g)
{
    size_t slots = 2;
    while (slots < 2 * (size_t)count)
        slots *= 2;
    struct dedupe d = {.slots = malloc(slots * sizeof *d.slots), .mask = slots - 1,
                       .a = malloc(SETTINGS_MAX), .b = malloc(SETTINGS_MAX)};
    g->points = malloc((size_t)(count ? count : 1) * sizeof *g->points);
    int rc = d.slots && d.a && d.b && g->points ? 0 : -1;
    if (rc == 0)
        memset(d.slots, 0xff, slots * sizeof *d.slots); /* every slot -1 */
    for (int i = 0; rc == 0 && i < sweep->n_jobs; i++)
        rc = add_job(sweep, &sweep->jobs[i], g, &d);
    if (rc == 0)
        rc = write_warnings(sweep, &d, g);
    free(d.slots);
    free(d.pairs);
    free(d.a);
    free(d.b);
    return rc;
}

int grid_expand(const struct sweep *sweep, struct grid *out)
{
    long long count = grid_count(sweep);
    *out = (struct grid){.sweep_path = sweep->path};
    if (count > LIMIT_GRID_POINTS_MAX || expand(sweep, count, out) != 0) {
        grid_free(out);
        return -1;
    }
    return 0;
}

/* Each point's text for each setting in the fit's group key fits its
 * field there: a longer one would be cut, and two values read as one. */
static int group_texts_fit(const struct sweep *sweep, const struct grid *g, char *err, size_t errlen)
{
    const struct point_field *f;
    for (long long i = 0; i < g->n; i++)
        for (int k = 0; (f = point_field_at(k)); k++) {
            point_text buf;
            const char *text = f->in_group_key ? point_field_text(f, &g->points[i], buf) : "";
            if (strlen(text) < f->group_size || !f->in_group_key)
                continue;
            snprintf(err, errlen, "%s:%d: [%s]: %s \"%.80s%s\" is %zu characters, more than the fit's group key "
                     "holds for it (%zu): give a shorter one", sweep->path, g->points[i].job->line,
                     g->points[i].job->name, f->name, text, strlen(text) > 80 ? "..." : "", strlen(text),
                     f->group_size - 1);
            return -1;
        }
    return 0;
}

int grid_build(const struct sweep *sweep, struct grid *out, char *err, size_t errlen)
{
    *out = (struct grid){.sweep_path = sweep->path};
    long long count = grid_count(sweep);
    if (count > LIMIT_GRID_POINTS_MAX) {
        snprintf(err, errlen, "%s: %lld points; at most %ld", sweep->path, count, LIMIT_GRID_POINTS_MAX);
        return EXIT_BAD_INPUT;
    }
    if (expand(sweep, count, out) != 0) {
        grid_free(out);
        snprintf(err, errlen, "%s: out of memory expanding %lld points", sweep->path, count);
        return EXIT_IO;
    }
    if (group_texts_fit(sweep, out, err, errlen) != 0) {
        grid_free(out);
        return EXIT_BAD_INPUT;
    }
    return EXIT_DONE;
}

void grid_summary(const struct grid *grid, char *out, size_t size)
{
    double seconds = 0;
    for (int i = 0; i < grid->n; i++)
        seconds += grid->points[i].job->timeout_s;
    long long s = (long long)(seconds + 0.5);
    snprintf(out, size, "%d point%s; at most %lld:%02lld:%02lld by their timeouts", grid->n,
             grid->n == 1 ? "" : "s", s / 3600, s / 60 % 60, s % 60);
}

void grid_free(struct grid *grid)
{
    free(grid->points);
    free(grid->warnings);
    *grid = (struct grid){0};
}
