/* rank_reports.h: the ranks of a command job that starts a launcher
 * (torchrun): a process that writes its report to a file in the point's
 * PEAKFIT_REPORT_DIR (rank-R.report, R its rank), or that carries a rank
 * variable (RANK, OMPI_COMM_WORLD_RANK, ...: proc/proc_tree.h) in its
 * environment. A launcher's workers do not inherit the report
 * descriptor, so each writes its own file; the runner samples each rank's
 * memory in the tree, reads the files strictly at the end, and makes the
 * largest rank's measurement the point's (what each device must hold),
 * each rank's peak kept in rank_peaks_mib. */
#ifndef PEAKFIT_RANK_REPORTS_H
#define PEAKFIT_RANK_REPORTS_H
#include <limits.h>
#include <sys/types.h>
#include "protocol/point_result.h"

struct rank_reports {
    char dir[PATH_MAX];                 /* the point's PEAKFIT_REPORT_DIR; "" none */
    int n_sampled;                      /* 1 + the highest rank seen in the tree */
    long sampled_kib[RANK_PEAKS_MAX];   /* each rank's largest sample */
};

/* A fresh directory for a point's rank reports (under TMPDIR, else /tmp):
 * 0, or -1 (errno) with why, naming the directory it was to be made in. */
int rank_reports_make(struct rank_reports *k, char *why, size_t size);
/* One sample of each rank's memory in root's tree. */
void rank_reports_sample(struct rank_reports *k, pid_t root);
/* Removes the directory and what is in it; "" after. */
void rank_reports_remove(struct rank_reports *k);
/* Where each rank's report is read into: slot R (R < RANK_PEAKS_MAX). */
struct rank_result {
    int present;                        /* it reported, or was seen */
    struct point_result r;
};
/* With each rank's report read into ranks[] (present set where a file
 * was), r the tree's: with any rank, the largest rank's measurement
 * becomes r's (r's own status, exit, signal, wall time, rusage and error
 * stay), rank_peaks and tree_peak_mib are set, and memory_method is
 * "ranks". Each rank's figures are checked against what peakfit measured
 * (rank_reports.c's rank_peak): the first fault into why (size bytes)
 * where it is still "". The number of ranks. */
int rank_reports_merge(const struct rank_reports *k, struct rank_result *ranks, struct point_result *r, char *why,
                       size_t size);
#endif
