/* auto_sweep.c: DIR/auto.sweep, the points the automated sweep chose. */
#include <stdio.h>
#include <string.h>
#include "autosweep/auto_sweep.h"
#include "core/technique.h"
#include "sweeps/job_train_options.h"
#include "sweeps/sweep_write.h"
#include "util/output_file.h"

static void write_global(struct sweep_writer *w, const char *model, const struct auto_request *r)
{
    sweep_write_comment(w, "Written by peakfit auto: every point it chose so far, one job per technique.\n"
                           "`peakfit run` measures them again; `peakfit auto` with the same options resumes.");
    sweep_write_section(w, "global");
    sweep_write_value(w, "model", model);
    sweep_write_value(w, "device", r->device);
    sweep_write_value(w, "attention", r->attention);
    sweep_write_value(w, "optimizer", r->optimizer);
    sweep_write_value(w, "zero_grad", r->zero_grad);
    sweep_write_valuef(w, "seq_len", "%ld", r->seq_len);
    if (r->warm) {
        sweep_write_value(w, "warm", "1");
        sweep_write_value(w, "steps", "1");
    }
    if (r->threads > 0)
        sweep_write_valuef(w, "threads", "%ld", r->threads);
    if (r->mem_limit_mib > 0)
        sweep_write_valuef(w, "mem_limit", "%.0fMiB", r->mem_limit_mib);
    if (r->point_timeout_s > 0)
        sweep_write_valuef(w, "timeout", "%.0fs", r->point_timeout_s);
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

pf_train_options auto_train_options(const struct auto_request *r, pf_technique t)
{
    struct sweep_job job;
    char err[256];
    sweep_job_defaults(&job);
    if (r->optimizer)
        (void)sweep_set(NULL, &job, "optimizer", r->optimizer, err, sizeof err);
    if (r->zero_grad)
        (void)sweep_set(NULL, &job, "zero_grad", r->zero_grad, err, sizeof err);
    job.optimizer = optimizer_resolved(job.optimizer, r->device ? r->device : "cpu");
    return job_train_options(&job, t, PF_ATTN_SDPA);
}
