/* auto_sweep.c: DIR/auto.sweep, the points the automated sweep chose. */
#include <stdio.h>
#include <string.h>
#include "autosweep/auto_sweep.h"
#include "core/optimizer.h"
#include "core/technique.h"
#include "point/point_fields.h"
#include "sweeps/job_train_options.h"
#include "sweeps/sweep_write.h"
#include "util/output_file.h"

static int settings_job(const struct auto_request *r, struct sweep_job *job, char *why, size_t size);

static void write_global(struct sweep_writer *w, const char *model, const struct auto_request *r)
{
    sweep_write_comment(w, "Written by peakfit auto: every point it chose so far, one job per technique.\n"
                           "`peakfit run` measures them again; `peakfit auto` with the same options resumes.");
    sweep_write_section(w, "global");
    sweep_write_value(w, "model", model);
    sweep_write_value(w, "device", r->device);
    sweep_write_value(w, "attention", r->attention);
    sweep_write_valuef(w, "seq_len", "%ld", r->seq_len);
    for (int a = 0; a < GROUP_AXIS_COUNT; a++)
        if (r->settings.want[a]) /* a list axis of the table: its key is named as its axis */
            sweep_write_value(w, group_axis_field(a), r->settings.want[a]);
    if (auto_warm(r))
        sweep_write_value(w, "steps", "1");
    if (r->threads > 0)
        sweep_write_valuef(w, "threads", "%ld", r->threads);
    if (r->mem_limit_mib > 0)
        sweep_write_valuef(w, "mem_limit", "%.0fMiB", r->mem_limit_mib);
    if (r->point_timeout_s > 0)
        sweep_write_valuef(w, "timeout", "%.0fs", r->point_timeout_s);
}

int auto_warm(const struct auto_request *r)
{
    struct sweep_job job;
    char why[320];
    return settings_job(r, &job, why, sizeof why) == 0 && job.warm[0]; /* the value its key reads, not the text */
}

static void write_job(struct sweep_writer *w, const struct auto_request *r, const struct auto_job *j)
{
    const char *technique = technique_name(j->technique);
    char name[SWEEP_NAME_MAX + 64];
    int own_seq_len = r->n_seq_lens > 1 && j->seq_len != r->seq_lens[0];
    int n = snprintf(name, sizeof name, "auto-%s", technique);
    if (own_seq_len)
        n += snprintf(name + n, sizeof name - (size_t)n, "-s%ld", j->seq_len);
    if (j->layers > 0)
        snprintf(name + n, sizeof name - (size_t)n, "-l%d", j->layers);
    sweep_write_section(w, name);
    sweep_write_value(w, "technique", technique);
    if (own_seq_len)
        sweep_write_valuef(w, "seq_len", "%ld", j->seq_len);
    if (j->layers > 0)
        sweep_write_valuef(w, "layers", "%d", j->layers);
    sweep_write_ints(w, "batch", j->batches, j->n);
}

int auto_sweep_write(const char *path, const char *model, const struct auto_request *r, const struct auto_job *jobs,
                     int n_jobs, char *err, size_t errlen)
{
    struct output_file out;
    struct sweep_writer w;
    if (output_file_open(&out, path, err, errlen) != 0)
        return -1;
    sweep_writer_start(&w, out.f, err, errlen);
    write_global(&w, model, r);
    for (int i = 0; i < n_jobs; i++)
        if (jobs[i].n > 0)
            write_job(&w, r, &jobs[i]);
    if (sweep_writer_end(&w) != 0) {
        output_file_abandon(&out);
        return -2;
    }
    return output_file_commit(&out, err, errlen);
}

/* The table's defaults with the request's device, attention and list
 * axes set: the job its points are. */
static int settings_job(const struct auto_request *r, struct sweep_job *job, char *why, size_t size)
{
    char err[256];
    sweep_job_defaults(job);
    if (r->device && sweep_set(NULL, job, "device", r->device, err, sizeof err) != 0)
        return snprintf(why, size, "--device: %s", err), -1;
    if (r->attention && sweep_set(NULL, job, "attention", r->attention, err, sizeof err) != 0)
        return snprintf(why, size, "--attention: %s", err), -1;
    for (int a = 0; a < GROUP_AXIS_COUNT; a++)
        if (r->settings.want[a] && sweep_set(NULL, job, group_axis_field(a), r->settings.want[a], err, sizeof err))
            return snprintf(why, size, "--%s: %s", group_axis_option(a), err), -1;
    return 0;
}

int auto_settings_check(const struct auto_request *r, char *why, size_t size)
{
    struct sweep_job job;
    return settings_job(r, &job, why, size);
}

/* The request's job, its optimizer resolved for its device (auto: the
 * one PyTorch would choose there). */
static void resolved_job(const struct auto_request *r, struct sweep_job *job)
{
    char why[320];
    (void)settings_job(r, job, why, sizeof why); /* checked when the options were read */
    job->optimizer[0] = optimizer_resolved(job->optimizer[0], r->device ? r->device : "cpu");
}

pf_train_options auto_train_options(const struct auto_request *r, pf_technique t)
{
    struct sweep_job job;
    resolved_job(r, &job);
    struct point_axes axes = job_axes_first(&job);
    return train_options_of(&axes, t, PF_ATTN_SDPA);
}

/* The setting row of a group key axis (the row named as the axis). */
static const struct point_field *axis_row(int a)
{
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++)
        if (!strcmp(f->name, group_axis_field(a)))
            return f;
    return NULL;
}

void auto_track_choice(const struct auto_request *r, const char *model, pf_technique t, int layers,
                       auto_axis_texts texts, struct group_choice *c)
{
    struct sweep_job job;
    resolved_job(r, &job);
    struct grid_point p = {.job = &job, .model = model, .device = job.devices[0], .technique = t,
                           .attention = job.attentions[0], .layers = layers, .axes = job_axes_first(&job)};
    for (int a = 0; a < GROUP_AXIS_COUNT; a++) {
        const struct point_field *f = axis_row(a);
        c->want[a] = f ? point_field_text(f, &p, texts[a]) : NULL;
    }
}
