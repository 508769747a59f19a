/* grid.c: the Cartesian product of each job's axes. */
#include <stdio.h>
#include <stdlib.h>
#include "runner/grid.h"
#include "sweeps/technique.h"

static int add_point(struct grid *g, int *cap, struct grid_point point)
{
    if (g->n == *cap) {
        int bigger = *cap ? 2 * *cap : 64;
        struct grid_point *p = realloc(g->points, (size_t)bigger * sizeof *p);
        if (!p)
            return -1;
        g->points = p;
        *cap = bigger;
    }
    /* What changes the memory is in the id, so a resumed run never takes a
     * row measured under other settings for its own. */
    char lora[96] = "";
    if (point.technique == PF_TECH_LORA || point.technique == PF_TECH_LORA_CKPT) {
        char targets[64];
        lora_targets_to_list(point.job->lora_targets, targets, sizeof targets);
        for (char *c = targets; *c; c++)
            *c = *c == ',' ? '+' : *c; /* ids stay free of CSV's separator */
        snprintf(lora, sizeof lora, "/lora%d-%s", point.job->lora_rank, targets);
    }
    snprintf(point.id, sizeof point.id, "%s/%s/%s/%s%s/b%d/s%d/st%d/r%d", point.job->name,
             point.model, point.device, technique_name(point.technique), lora, point.batch,
             point.seq_len, point.job->steps, point.repeat);
    g->points[g->n++] = point;
    return 0;
}

/* One technique's points: a load point has no batch or sequence. */
static int add_technique(struct grid *g, int *cap, struct grid_point base)
{
    const struct sweep_job *j = base.job;
    int n_seq = base.technique == PF_TECH_LOAD ? 1 : j->n_seq_lens;
    int n_batch = base.technique == PF_TECH_LOAD ? 1 : j->n_batches;
    for (int s = 0; s < n_seq; s++) {
        for (int b = 0; b < n_batch; b++) {
            for (int r = 0; r < j->repeats; r++) {
                struct grid_point p = base;
                p.seq_len = base.technique == PF_TECH_LOAD ? 0 : j->seq_lens[s];
                p.batch = base.technique == PF_TECH_LOAD ? 0 : j->batches[b];
                p.repeat = r;
                if (add_point(g, cap, p) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

int grid_expand(const struct sweep *sweep, struct grid *out)
{
    int cap = 0;
    *out = (struct grid){.sweep_path = sweep->path};
    for (int i = 0; i < sweep->n_jobs; i++) {
        const struct sweep_job *j = &sweep->jobs[i];
        for (int m = 0; m < j->n_models; m++)
            for (int d = 0; d < j->n_devices; d++)
                for (int t = 0; t < j->n_techniques; t++) {
                    struct grid_point base = {.job = j, .model = j->models[m], .model_source = j->models[m],
                                              .device = j->devices[d], .technique = j->techniques[t]};
                    if (add_technique(out, &cap, base) != 0) {
                        grid_free(out);
                        return -1;
                    }
                }
    }
    return 0;
}

void grid_free(struct grid *grid)
{
    free(grid->points);
    *grid = (struct grid){0};
}
