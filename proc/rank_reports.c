/* rank_reports.c: a point's report directory, each rank's memory sampled
 * in its tree, and the largest rank made the point's (rank_reports.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc/proc_tree.h"
#include "proc/rank_reports.h"

int rank_reports_make(struct rank_reports *k)
{
    const char *tmp = getenv("TMPDIR");
    memset(k, 0, sizeof *k);
    snprintf(k->dir, sizeof k->dir, "%s/peakfit-ranks-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(k->dir))
        return 0;
    k->dir[0] = '\0';
    return -1;
}

void rank_reports_sample(struct rank_reports *k, pid_t root)
{
    long kib[RANK_PEAKS_MAX] = {0};
    int n = proc_tree_rank_rss_kib(root, kib, RANK_PEAKS_MAX);
    for (int i = 0; i < n; i++)
        k->sampled_kib[i] = kib[i] > k->sampled_kib[i] ? kib[i] : k->sampled_kib[i];
    k->n_sampled = n > k->n_sampled ? n : k->n_sampled;
}

void rank_reports_remove(struct rank_reports *k)
{
    DIR *d = k->dir[0] ? opendir(k->dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", k->dir, e->d_name);
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(path);
    }
    if (d)
        closedir(d);
    if (k->dir[0])
        rmdir(k->dir);
    k->dir[0] = '\0';
}

/* A rank's own peak: what it reported (VmHWM), or its sampled share of
 * the tree where that is larger (a rank that reported nothing: only it). */
static void rank_peak(const struct rank_reports *k, int rank, struct point_result *rr)
{
    double sampled = rank < k->n_sampled ? k->sampled_kib[rank] / 1024.0 : 0;
    if (rr->peak_rss_mib < sampled)
        rr->peak_rss_mib = sampled;
    if (rr->baseline_rss_mib < 0)
        rr->baseline_rss_mib = 0;
    if (rr->baseline_tensor_mib < 0 && rr->tensor_peak_mib >= 0)
        rr->baseline_tensor_mib = 0;
}

static double above(double peak, double base) { return peak < 0 || base < 0 ? -1 : peak - base; }

/* The rank a device must hold most for: the largest allocator-level peak
 * when every rank reported one (what the fit uses then), else RSS. */
static int largest(const struct rank_peak *p, int n)
{
    int tensor = 1, best = 0;
    for (int i = 0; i < n; i++)
        tensor &= p[i].tensor_mib >= 0;
    for (int i = 1; i < n; i++)
        if (tensor ? p[i].tensor_mib > p[best].tensor_mib : p[i].rss_mib > p[best].rss_mib)
            best = i;
    return best;
}

int rank_reports_merge(const struct rank_reports *k, struct rank_result *ranks, struct point_result *r)
{
    struct rank_peak peaks[RANK_PEAKS_MAX];
    int n = 0;
    r->tree_peak_mib = r->peak_rss_mib;
    for (int i = 0; i < RANK_PEAKS_MAX; i++) {
        if (!ranks[i].present && !(i < k->n_sampled && k->sampled_kib[i] > 0))
            continue;
        if (!ranks[i].present)
            point_result_init(&ranks[i].r);
        rank_peak(k, i, &ranks[i].r);
        const struct point_result *rr = &ranks[i].r;
        peaks[n++] = (struct rank_peak){.rank = i, .rss_mib = above(rr->peak_rss_mib, rr->baseline_rss_mib),
                                        .tensor_mib = above(rr->tensor_peak_mib, rr->baseline_tensor_mib)};
    }
    if (n == 0)
        return 0;
    struct point_result own = *r;
    *r = ranks[peaks[largest(peaks, n)].rank].r;
    memcpy(r->status, own.status, sizeof r->status);
    r->exit_code = own.exit_code;
    r->signal = own.signal;
    r->wall_s = own.wall_s;
    r->rusage_maxrss_mib = own.rusage_maxrss_mib;
    if (own.error[0] || !r->error[0])
        memcpy(r->error, own.error, sizeof r->error);
    r->tree_peak_mib = own.peak_rss_mib;
    rank_peaks_format(peaks, n, r->rank_peaks);
    snprintf(r->memory_method, sizeof r->memory_method, "ranks");
    return n;
}
