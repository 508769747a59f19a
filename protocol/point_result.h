/* point_result.h: what is known about one grid point after its worker ends:
 * the worker's own report (sent over a pipe as key=value lines) and what
 * the parent saw (exit status, rusage, wall time). */
#ifndef PEAKFIT_POINT_RESULT_H
#define PEAKFIT_POINT_RESULT_H
#include <stdint.h>
#include "protocol/worker_report.h"
#include "core/phase.h"
#include "util/rank_peaks.h"

enum { WORKER_EXIT_OK = 0, WORKER_EXIT_USAGE = 2, WORKER_EXIT_OOM = 3, WORKER_EXIT_ERROR = 4 };
/* The same statuses in words, for the worker's --help (both binaries'). */
#define WORKER_EXIT_STATUS_TEXT \
    "exit status: 0 ok, 2 a bad option, 3 out of memory, 4 any other failure (its error line says which)\n"

/* The status of a point run -j 1 did not start: its predicted peak was
 * more than the free memory (runner/pool.c); measured again on resume. */
#define POINT_REFUSED "refused"

struct point_result {
    char status[16];       /* ok, oom, killed, timeout, crashed, error, refused */
    int exit_code;         /* -1 when killed by a signal */
    int signal;            /* 0 unless killed by a signal */
    double wall_s;
    double rusage_maxrss_mib;
    /* from the worker's report; -1 where it never said */
    double baseline_rss_mib;
    double peak_rss_mib;
    double baseline_tensor_mib;
    double tensor_peak_mib;
    long long params, trainable_params;
    double weight_mib, grad_mib, optimizer_mib;
    double build_s;
    double start_s;        /* fork to the worker's main: exec and dynamic loading */
    double init_s;         /* pf_init: allocator, thread pools */
    int n_steps;           /* every step the worker reported: no cap */
    double step1_s;        /* the first (it also allocates AdamW's state); -1 before it */
    double later_steps_s;  /* the sum of the steps after the first */
    double loss;
    char torch_version[32];
    int threads;
    char blas[256];
    int blas_threads;
    char cpu_model[128];
    char error[512];
    /* per phase of a step (PF_PHASES): the allocator-level peak and the
     * RSS at its end, absolute (baselines not subtracted); -1 unknown */
    double phase_peak_mib[PF_PHASE_COUNT], phase_end_rss_mib[PF_PHASE_COUNT];
    /* on a GPU: the device allocator's allocated and reserved peak per phase */
    double phase_gpu_allocated_mib[PF_PHASE_COUNT], phase_gpu_reserved_mib[PF_PHASE_COUNT];
    /* GPU rows only (-1 and empty elsewhere): the caching allocator's peaks
     * since the baseline, what the process held on the device outside it */
    double gpu_allocated_peak_mib, gpu_reserved_peak_mib, gpu_context_mib, gpu_total_mib;
    char gpu_name[96], cuda_version[16], driver_version[32];
    /* how peak_rss_mib was measured: "vmhwm" (the worker's own), "tree-poll"
     * (a command job's process tree, proc/command_watch.h) */
    char memory_method[16];
    /* a command job: its whole tree's peak (-1 for the worker's); with
     * ranks, each one's (util/rank_peaks.h), "" without */
    double tree_peak_mib;
    char rank_peaks[RANK_PEAKS_TEXT];
};

/* Every report row's field -1 (unknown), the runner's 0 but exit_code -1. */
void point_result_init(struct point_result *r);
/* Applies one "key=value" line of a worker's report (line is cut at its
 * '='). 1 when the key is one it knows (a value out of its unit's range,
 * or not a number, is dropped: the field stays unknown), 0 when not (a
 * newer worker's: the built-in worker's runner ignores it), -1 when the
 * line has no '='. */
int point_result_take_line(struct point_result *r, char *line);

enum { REPORT_LINE_TAKEN = 1, REPORT_LINE_UNKNOWN = 0, REPORT_LINE_NOT_KEY_VALUE = -1, REPORT_LINE_BAD_VALUE = -2,
       REPORT_SLOTS = REPORT_N_KEYS * PF_PHASE_COUNT };
/* The same, read strictly, for a command's report: REPORT_LINE_TAKEN with
 * the key's slot (its row and phase, < REPORT_SLOTS) in slot; or
 * REPORT_LINE_BAD_VALUE with why in why (loss "nan" is not a number from 0
 * to 1e+12), the field untouched; REPORT_LINE_UNKNOWN or
 * REPORT_LINE_NOT_KEY_VALUE. */
int point_result_read_line(struct point_result *r, char *line, int *slot, char *why, size_t whylen);
/* Whether the key of a slot may come again, the last one standing: one
 * line a step (step_s, loss). */
int point_result_repeats(int slot);
/* Report key k's field in r (a phase row's: its array), and its size. */
void *point_result_field(struct point_result *r, enum worker_report_key k, size_t *size);
/* Report key k's field as a number (a phase row's: that phase's), or -1
 * for a text field. */
double point_result_number(const struct point_result *r, enum worker_report_key k, int phase);
/* Report key k's field as text, or "" for a number. */
const char *point_result_text(const struct point_result *r, enum worker_report_key k);
#endif
