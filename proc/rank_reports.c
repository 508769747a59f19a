/* rank_reports.c: a point's report directory, each rank's memory sampled
 * in its tree, and the largest rank made the point's (rank_reports.h). */
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc/proc_tree.h"
#include "proc/rank_reports.h"

int rank_reports_make(struct rank_reports *k, char *why, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    memset(k, 0, sizeof *k);
    snprintf(k->dir, sizeof k->dir, "%s/peakfit-ranks-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(k->dir))
        return 0;
    int err = errno;
    snprintf(why, size, "cannot make the point's report directory in %s%.200s: %s", tmp && tmp[0] ? "TMPDIR " : "",
             tmp && tmp[0] ? tmp : "/tmp", strerror(err));
    k->dir[0] = '\0';
    errno = err;
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

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *at)
{
    (void)st, (void)type, (void)at;
    remove(path);
    return 0;
}

/* Depth first, links not followed: whatever a rank made in it (a
 * subdirectory too) goes, and nothing outside it. */
void rank_reports_remove(struct rank_reports *k)
{
    if (k->dir[0])
        nftw(k->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    k->dir[0] = '\0';
}

/* The first fault of the ranks' reports into why ("" while none). */
static void fault(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    if (why[0])
        return;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

/* A rank's own peak, checked against what peakfit measured: what it
 * reported (VmHWM), never above the whole tree's peak, or its sampled
 * share of the tree where that is larger. A rank that reported but was
 * never seen in the tree (no process carried its number) and gave no
 * peak was not measured; a baseline above the rank's peak is not its
 * baseline. Either is a fault, and the rank's figures are left at what
 * can be read back (a peak above baseline of 0, never negative). */
static void rank_peak(const struct rank_reports *k, int rank, int reported, struct point_result *rr, double tree_mib,
                      char *why, size_t size)
{
    double sampled = rank < k->n_sampled ? k->sampled_kib[rank] / 1024.0 : 0;
    if (rr->peak_rss_mib > tree_mib) {
        fault(why, size, "rank %d's peak_rss_kib %.0f (%.1f MiB) is above the process tree's peak, %.1f MiB", rank,
              rr->peak_rss_mib * 1024, rr->peak_rss_mib, tree_mib);
        rr->peak_rss_mib = -1;
    }
    if (rr->peak_rss_mib < sampled)
        rr->peak_rss_mib = sampled;
    if (reported && rr->peak_rss_mib <= 0) {
        fault(why, size, "rank %d reported, but no process of the tree carried its number (RANK, "
              "OMPI_COMM_WORLD_RANK, PMI_RANK or PMIX_RANK = %d) and its report has no peak_rss_kib: its peak was "
              "not measured", rank, rank);
        rr->peak_rss_mib = 0;
    }
    if (rr->baseline_rss_mib < 0)
        rr->baseline_rss_mib = 0;
    if (rr->baseline_rss_mib > rr->peak_rss_mib) {
        if (rr->peak_rss_mib > 0)
            fault(why, size, "rank %d's baseline_rss_kib %.0f (%.1f MiB) is above its peak, %.1f MiB", rank,
                  rr->baseline_rss_mib * 1024, rr->baseline_rss_mib, rr->peak_rss_mib);
        rr->baseline_rss_mib = rr->peak_rss_mib;
    }
    if (rr->baseline_tensor_mib < 0 && rr->tensor_peak_mib >= 0)
        rr->baseline_tensor_mib = 0;
    if (rr->tensor_peak_mib >= 0 && rr->baseline_tensor_mib > rr->tensor_peak_mib) {
        fault(why, size, "rank %d's baseline_tensor_bytes (%.1f MiB) is above its tensor_peak_bytes (%.1f MiB)", rank,
              rr->baseline_tensor_mib, rr->tensor_peak_mib);
        rr->baseline_tensor_mib = rr->tensor_peak_mib;
    }
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

int rank_reports_merge(const struct rank_reports *k, struct rank_result *ranks, struct point_result *r, char *why,
                       size_t size)
{
    struct rank_peak peaks[RANK_PEAKS_MAX];
    int n = 0;
    r->tree_peak_mib = r->peak_rss_mib;
    for (int i = 0; i < RANK_PEAKS_MAX; i++) {
        if (!ranks[i].present && !(i < k->n_sampled && k->sampled_kib[i] > 0))
            continue;
        if (!ranks[i].present)
            point_result_init(&ranks[i].r);
        rank_peak(k, i, ranks[i].present, &ranks[i].r, r->peak_rss_mib, why, size);
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
