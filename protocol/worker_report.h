/* worker_report.h: what a worker reports, one row per key, written once.
 * worker/worker.c writes each line as "key=value" by its row (so a key
 * the table lacks does not compile), protocol/point_result.c reads each line
 * into the row's field of struct point_result, and a command job (#20)
 * writes the same keys. A row without a key is what the runner itself
 * measures (exit status, rusage, wall time) or derives.
 *
 * X(name, unit, field, column, text, less): name is the key; field the
 * member of struct point_result it is read into; column the peaks.csv
 * column it ends in (a phase row: the first of its phases' columns), text
 * how that column is written and less what is subtracted first. The
 * measured columns of peaks.csv (store/results_csv.c) are written by
 * walking these rows. A new measured quantity is one row, its field and
 * column, and its use; tests/point_fields_test.c fails while a measured
 * column has no row, or a row no column, or a key's value does not reach
 * its column. */
#ifndef PEAKFIT_WORKER_REPORT_H
#define PEAKFIT_WORKER_REPORT_H
#include <stddef.h>
#include "settings/peaks_columns.h"

/* Units, as the worker writes them (the field holds MiB for KIB and BYTES):
 *   KIB, BYTES: a size, read into MiB;  COUNT: a whole number (long long);
 *   INT: a small whole number;  REAL: seconds or a value;  TEXT: a string;
 *   STEP: one line per step (seconds), counted and summed;
 *   PHASE_BYTES, PHASE_KIB: one key per phase, "forward_" + name after
 *   "phase_", into field[phase];  RUNNER: the runner's own, no key.
 * Texts, how store/results_csv.c writes the field into its column:
 *   TEXT: as it is;  WHOLE: a whole number, always (exit_code -1);
 *   D0, D3, D4, D5: a number with that many decimals, empty when unknown
 *   (negative);  STEP_MEAN: the mean of the steps after the first (the
 *   first also allocates AdamW's state), the first's when it is the only;
 *   NOW: the time the row is written (UTC).
 * less: the row whose field is subtracted first (the worker's baseline),
 *   or none. A row with no column of its own (column none) is another's less. */
#define WORKER_REPORT(X)                                                                                           \
    X(baseline_rss_kib, KIB, baseline_rss_mib, baseline_rss_mib, D3, none)                                         \
    X(peak_rss_kib, KIB, peak_rss_mib, peak_rss_mib, D3, none)                                                     \
    X(baseline_tensor_bytes, BYTES, baseline_tensor_mib, none, D3, none)                                           \
    X(tensor_peak_bytes, BYTES, tensor_peak_mib, tensor_peak_mib, D3, baseline_tensor_bytes)                       \
    X(params, COUNT, params, params, D0, none)                                                                     \
    X(trainable_params, COUNT, trainable_params, trainable_params, D0, none)                                       \
    X(weight_bytes, BYTES, weight_mib, weight_mib, D3, none)                                                       \
    X(grad_bytes, BYTES, grad_mib, grad_mib, D3, none)                                                             \
    X(optimizer_bytes, BYTES, optimizer_mib, optimizer_mib, D3, none)                                              \
    X(build_s, REAL, build_s, build_s, D4, none)                                                                   \
    X(start_s, REAL, start_s, start_s, D4, none)                                                                   \
    X(init_s, REAL, init_s, init_s, D4, none)                                                                      \
    X(step_s, STEP, step1_s, step1_s, D4, none)                                                                    \
    X(loss, REAL, loss, loss, D5, none)                                                                            \
    X(torch_version, TEXT, torch_version, torch_version, TEXT, none)                                               \
    X(threads, INT, threads, threads, D0, none)                                                                    \
    X(blas, TEXT, blas, blas, TEXT, none)                                                                          \
    X(blas_threads, INT, blas_threads, blas_threads, D0, none)                                                     \
    X(cpu_model, TEXT, cpu_model, cpu_model, TEXT, none)                                                           \
    X(error, TEXT, error, error, TEXT, none)                                                                       \
    X(gpu_allocated_peak_bytes, BYTES, gpu_allocated_peak_mib, gpu_allocated_peak_mib, D3, none)                   \
    X(gpu_reserved_peak_bytes, BYTES, gpu_reserved_peak_mib, gpu_reserved_peak_mib, D3, none)                      \
    X(gpu_context_bytes, BYTES, gpu_context_mib, gpu_context_mib, D3, none)                                        \
    X(gpu_total_bytes, BYTES, gpu_total_mib, gpu_total_mib, D3, none)                                              \
    X(gpu_name, TEXT, gpu_name, gpu_name, TEXT, none)                                                              \
    X(cuda_version, TEXT, cuda_version, cuda_version, TEXT, none)                                                  \
    X(driver_version, TEXT, driver_version, driver_version, TEXT, none)                                            \
    X(phase_peak_bytes, PHASE_BYTES, phase_peak_mib, forward_peak_mib, D3, baseline_tensor_bytes)                  \
    X(phase_end_rss_kib, PHASE_KIB, phase_end_rss_mib, forward_end_rss_mib, D3, baseline_rss_kib)                  \
    X(phase_gpu_allocated_peak_bytes, PHASE_BYTES, phase_gpu_allocated_mib, forward_gpu_allocated_peak_mib, D3,    \
      none)                                                                                                        \
    X(phase_gpu_reserved_peak_bytes, PHASE_BYTES, phase_gpu_reserved_mib, forward_gpu_reserved_peak_mib, D3, none) \
    X(status, RUNNER, status, status, TEXT, none)                                                                  \
    X(exit_code, RUNNER, exit_code, exit_code, WHOLE, none)                                                        \
    X(signal, RUNNER, signal, signal, WHOLE, none)                                                                 \
    X(rusage_maxrss_mib, RUNNER, rusage_maxrss_mib, rusage_maxrss_mib, D3, none)                                   \
    X(worker_wall_s, RUNNER, wall_s, worker_wall_s, D3, none)                                                      \
    X(peak_above_baseline_mib, RUNNER, peak_rss_mib, peak_above_baseline_mib, D3, baseline_rss_kib)                \
    X(step_mean_s, RUNNER, later_steps_s, step_mean_s, STEP_MEAN, none)                                            \
    X(finished_at, RUNNER, status, finished_at, NOW, none)                                                         \
    X(memory_method, RUNNER, memory_method, memory_method, TEXT, none) \
    X(tree_peak_rss_mib, RUNNER, tree_peak_mib, tree_peak_rss_mib, D3, none)                                       \
    X(rank_peaks_mib, RUNNER, rank_peaks, rank_peaks_mib, TEXT, none)

enum worker_report_key {
#define WORKER_REPORT_ENUM(name, unit, field, column, text, less) REPORT_##name,
    WORKER_REPORT(WORKER_REPORT_ENUM)
#undef WORKER_REPORT_ENUM
    REPORT_N_KEYS,
    REPORT_none = -1 /* a row's less: nothing subtracted */
};

enum worker_report_unit {
    REPORT_KIB, REPORT_BYTES, REPORT_COUNT, REPORT_INT, REPORT_REAL, REPORT_TEXT, REPORT_STEP,
    REPORT_PHASE_BYTES, REPORT_PHASE_KIB, REPORT_RUNNER
};

enum worker_report_text {
    REPORT_TEXT_TEXT, REPORT_TEXT_WHOLE, REPORT_TEXT_D0, REPORT_TEXT_D3, REPORT_TEXT_D4, REPORT_TEXT_D5,
    REPORT_TEXT_STEP_MEAN, REPORT_TEXT_NOW
};

struct worker_report_row {
    const char *name;
    enum worker_report_unit unit;
    enum peaks_column column;    /* PEAKS_COL_none: none of its own */
    enum worker_report_text text;
    enum worker_report_key less; /* REPORT_none: nothing */
};
extern const struct worker_report_row worker_report_rows[REPORT_N_KEYS];

/* How many columns (and keys) the row has: one per phase for a phase row. */
int worker_report_phases(enum worker_report_key k);
/* The key of a row, for the phase rows the key of that phase
 * ("forward_peak_bytes"): into buf (size bytes), returned. */
const char *worker_report_key(enum worker_report_key k, int phase, char *buf, size_t size);
#endif
