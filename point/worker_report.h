/* worker_report.h: what a worker reports, one row per key, written once.
 * worker/worker.c writes each line as "key=value" by its row (so a key
 * the table lacks does not compile), point/point_result.c reads each line
 * into the row's field of struct point_result, and a command job (#20)
 * writes the same keys. A row without a key is what the runner itself
 * measures (exit status, rusage, wall time) or derives.
 *
 * X(name, unit, field, column): name is the key; field the member of
 * struct point_result it is read into; column the peaks.csv column it
 * ends in. A new measured quantity is one row, its field and column, and
 * its use; tests/point_fields_test.c checks that every measured peaks.csv
 * column has a row. */
#ifndef PEAKFIT_WORKER_REPORT_H
#define PEAKFIT_WORKER_REPORT_H
#include <stddef.h>
#include "util/peaks_columns.h"

/* Units, as the worker writes them (the field holds MiB for KIB and BYTES):
 *   KIB, BYTES: a size, read into MiB;  COUNT: a whole number (long long);
 *   INT: a small whole number;  REAL: seconds or a value;  TEXT: a string;
 *   STEP: one line per step (seconds), counted and summed;
 *   PHASE_BYTES, PHASE_KIB: one key per phase, "forward_" + name after
 *   "phase_", into field[phase];  RUNNER: the runner's own, no key. */
#define WORKER_REPORT(X)                                                         \
    X(baseline_rss_kib, KIB, baseline_rss_mib, baseline_rss_mib)                 \
    X(peak_rss_kib, KIB, peak_rss_mib, peak_rss_mib)                             \
    X(baseline_tensor_bytes, BYTES, baseline_tensor_mib, tensor_peak_mib)        \
    X(tensor_peak_bytes, BYTES, tensor_peak_mib, tensor_peak_mib)                \
    X(params, COUNT, params, params)                                             \
    X(trainable_params, COUNT, trainable_params, trainable_params)               \
    X(weight_bytes, COUNT, weight_bytes, weight_mib)                             \
    X(grad_bytes, COUNT, grad_bytes, grad_mib)                                   \
    X(optimizer_bytes, COUNT, optimizer_bytes, optimizer_mib)                    \
    X(build_s, REAL, build_s, build_s)                                           \
    X(start_s, REAL, start_s, start_s)                                           \
    X(init_s, REAL, init_s, init_s)                                              \
    X(step_s, STEP, step1_s, step1_s)                                            \
    X(loss, REAL, loss, loss)                                                    \
    X(torch_version, TEXT, torch_version, torch_version)                         \
    X(threads, INT, threads, threads)                                            \
    X(blas, TEXT, blas, blas)                                                    \
    X(blas_threads, INT, blas_threads, blas_threads)                             \
    X(cpu_model, TEXT, cpu_model, cpu_model)                                     \
    X(error, TEXT, error, error)                                                 \
    X(gpu_allocated_peak_bytes, BYTES, gpu_allocated_peak_mib, gpu_allocated_peak_mib) \
    X(gpu_reserved_peak_bytes, BYTES, gpu_reserved_peak_mib, gpu_reserved_peak_mib) \
    X(gpu_context_bytes, BYTES, gpu_context_mib, gpu_context_mib)                \
    X(gpu_total_bytes, BYTES, gpu_total_mib, gpu_total_mib)                      \
    X(gpu_name, TEXT, gpu_name, gpu_name)                                        \
    X(cuda_version, TEXT, cuda_version, cuda_version)                            \
    X(driver_version, TEXT, driver_version, driver_version)                      \
    X(phase_peak_bytes, PHASE_BYTES, phase_peak_mib, forward_peak_mib)           \
    X(phase_end_rss_kib, PHASE_KIB, phase_end_rss_mib, forward_end_rss_mib)      \
    X(phase_gpu_allocated_peak_bytes, PHASE_BYTES, phase_gpu_allocated_mib, forward_gpu_allocated_peak_mib) \
    X(phase_gpu_reserved_peak_bytes, PHASE_BYTES, phase_gpu_reserved_mib, forward_gpu_reserved_peak_mib) \
    X(status, RUNNER, status, status)                                            \
    X(exit_code, RUNNER, exit_code, exit_code)                                   \
    X(signal, RUNNER, signal, signal)                                            \
    X(rusage_maxrss_mib, RUNNER, rusage_maxrss_mib, rusage_maxrss_mib)           \
    X(worker_wall_s, RUNNER, wall_s, worker_wall_s)                              \
    X(peak_above_baseline_mib, RUNNER, peak_rss_mib, peak_above_baseline_mib)    \
    X(step_mean_s, RUNNER, later_steps_s, step_mean_s)                           \
    X(finished_at, RUNNER, status, finished_at)                                  \
    X(memory_method, RUNNER, memory_method, memory_method)

enum worker_report_key {
#define WORKER_REPORT_ENUM(name, unit, field, column) REPORT_##name,
    WORKER_REPORT(WORKER_REPORT_ENUM)
#undef WORKER_REPORT_ENUM
    REPORT_N_KEYS
};

enum worker_report_unit {
    REPORT_KIB, REPORT_BYTES, REPORT_COUNT, REPORT_INT, REPORT_REAL, REPORT_TEXT, REPORT_STEP,
    REPORT_PHASE_BYTES, REPORT_PHASE_KIB, REPORT_RUNNER
};

struct worker_report_row {
    const char *name;
    enum worker_report_unit unit;
    enum peaks_column column;
};
extern const struct worker_report_row worker_report_rows[REPORT_N_KEYS];

/* The key of a row, for the phase rows the key of that phase
 * ("forward_peak_bytes"): into buf (size bytes), returned. */
const char *worker_report_key(enum worker_report_key k, int phase, char *buf, size_t size);
#endif
