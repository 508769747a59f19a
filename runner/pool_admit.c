/* pool_admit.c: whether the pool may start a point now, beside the points
 * running: the machine's memory against each one's predicted peak, a point
 * predicted past the machine's memory alone, and the GPUs' slots. */
#include <stdio.h>
#include "runner/pool_admit.h"
#include "proc/proc_stats.h"
#include "core/device.h"

static double mib_of(enum host_memory which)
{
    long kib = host_memory_kib(which);
    return kib > 0 ? kib / 1024.0 : 0;
}

/* What the running workers may still add: each one's prediction less what
 * it holds now. */
static double still_to_come_mib(const struct pool *pl)
{
    double sum = 0;
    for (int k = 0; k < pl->jobs; k++) {
        const struct slot *sl = &pl->slots[k];
        if (!sl->busy)
            continue;
        double more = sl->predicted_mib - sl->r.baseline_rss_mib - spawn_rss_above_baseline_mib(&sl->sp);
        sum += more > 0 ? more : 0;
    }
    return sum;
}

/* Do the GPUs let point i start in slot k beside the running points? */
static int gpus_allow(const struct pool *pl, int k, int i)
{
    enum gpu_use running[POOL_MAX];
    int n = 0;
    for (int j = 0; j < pl->jobs; j++)
        if (pl->slots[j].busy)
            running[n++] = pl->slots[j].gpu;
    return gpu_may_start(&pl->gpus, k, gpu_use_of(&pl->gpus, pl->jobs, pl->g->points[i].device), running, n);
}

/* May point i start now in slot k? Always when nothing runs; never beside
 * a point running alone; alone itself when predicted above the machine's
 * memory; a GPU point only where gpus_allow. */
int pool_may_start(struct pool *pl, int k, int i, double *predicted, int *alone)
{
    if (!gpus_allow(pl, k, i))
        return 0;
    *predicted = predictor_peak_mib(&pl->predictor, &pl->g->points[i]);
    double total = mib_of(HOST_MEMORY_TOTAL);
    *alone = pl->jobs > 1 && total > 0 && *predicted > total;
    if (pl->running == 0)
        return 1;
    for (int j = 0; j < pl->jobs; j++)
        if (pl->slots[j].busy && pl->slots[j].alone)
            return 0;
    if (*alone)
        return 0;
    double available = mib_of(HOST_MEMORY_AVAILABLE);
    return available <= 0 || *predicted + still_to_come_mib(pl) <= available;
}

/* -j 1: a CPU point predicted to need more than the machine's free memory
 * now is not started (it would push the machine into swap or the kernel's
 * OOM killer, taking other processes with it); its row says so, and a
 * later run measures it again (store/results_resume.c). 1 when refused. */
int pool_refused_for_memory(struct pool *pl, int i, struct point_result *r)
{
    const struct grid_point *p = &pl->g->points[i];
    if (pl->jobs != 1 || device_is_gpu(p->device))
        return 0;
    double predicted = predictor_peak_mib(&pl->predictor, p), available = mib_of(HOST_MEMORY_AVAILABLE);
    if (available <= 0 || predicted <= available)
        return 0;
    point_result_init(r);
    snprintf(r->status, sizeof r->status, "%s", POINT_REFUSED);
    snprintf(r->error, sizeof r->error, "not started: its predicted peak, %.0f MiB with the baseline, is more than "
             "the free memory now (MemAvailable %.0f MiB); run again when memory is free", predicted, available);
    return 1;
}
