/* auto_sweep.c: DIR/auto.sweep, the points the automated sweep chose. */
#include <stdio.h>
#include <string.h>
#include "autosweep/auto_sweep.h"
#include "core/technique.h"
#include "util/output_file.h"

static void write_global(FILE *f, const char *model, const struct auto_request *r)
{
    fprintf(f, "# Written by peakfit auto: every point it chose so far, one job per technique.\n"
               "# `peakfit run` measures them again; `peakfit auto` with the same options resumes.\n"
               "[global]\nmodel = %s\ndevice = %s\nattention = %s\nseq_len = %ld\n",
            model, r->device, r->attention, r->seq_len);
    if (r->threads > 0)
        fprintf(f, "threads = %ld\n", r->threads);
    if (r->mem_limit_mib > 0)
        fprintf(f, "mem_limit = %.0fMiB\n", r->mem_limit_mib);
    if (r->point_timeout_s > 0)
        fprintf(f, "timeout = %.0fs\n", r->point_timeout_s);
}

static void write_job(FILE *f, const struct auto_request *r, const struct auto_job *j)
{
    int other_seq_len = r->n_seq_lens > 1 && j->seq_len != r->seq_lens[0];
    fprintf(f, "\n[auto-%s", technique_name(j->technique));
    if (other_seq_len)
        fprintf(f, "-s%ld", j->seq_len);
    if (j->layers > 0)
        fprintf(f, "-l%d", j->layers);
    fprintf(f, "]\ntechnique = %s\n", technique_name(j->technique));
    if (other_seq_len)
        fprintf(f, "seq_len = %ld\n", j->seq_len);
    if (j->layers > 0)
        fprintf(f, "layers = %d\n", j->layers);
    fprintf(f, "batch = ");
    for (int i = 0; i < j->n; i++)
        fprintf(f, "%s%d", i ? ", " : "", j->batches[i]);
    fputc('\n', f);
}

int auto_sweep_write(const char *path, const char *model, const struct auto_request *r, const struct auto_job *jobs,
                     int n_jobs, char *err, size_t errlen)
{
    struct output_file out;
    /* A sweep line would read these as a list separator or a comment. */
    if (strpbrk(model, ",#;\n\r")) {
        snprintf(err, errlen, "%s: the model's path holds , # ; or a line break and cannot be written into a sweep",
                 model);
        return -1;
    }
    if (output_file_open(&out, path, err, errlen) != 0)
        return -1;
    write_global(out.f, model, r);
    for (int i = 0; i < n_jobs; i++)
        if (jobs[i].n > 0)
            write_job(out.f, r, &jobs[i]);
    return output_file_commit(&out, err, errlen);
}
