/* peaks_columns.h: the columns of peaks.csv, written once. The runner's
 * writer, the resume check and the fit's reader all walk this list, so a
 * column is added by adding its row here (at the end: files written by
 * older versions must stay readable by `fit`) plus the code that fills it.
 *
 * X(name, type, role). Units are part of each name.
 *   type: how every reader checks the field: TEXT (any text), INT (a whole
 *         number), NUM (a finite number); INT and NUM are empty when unknown.
 *   role: POINT (what the point is: in its id), SETTING (how it was
 *         measured: a resumed run refuses a row whose setting differs from
 *         the sweep's), LIMIT (a limit a failure depends on: a timeout or
 *         watchdog oom under a smaller limit is measured again), RESULT. */
#ifndef PEAKFIT_PEAKS_COLUMNS_H
#define PEAKFIT_PEAKS_COLUMNS_H
#include <stddef.h>

#define PEAKS_COLUMNS(X)                        \
    X(point_id, TEXT, POINT)                    \
    X(job, TEXT, POINT)                         \
    X(model, TEXT, POINT)                       \
    X(device, TEXT, POINT)                      \
    X(technique, TEXT, POINT)                   \
    X(batch, INT, POINT)                        \
    X(seq_len, INT, POINT)                      \
    X(tokens, INT, POINT)                       \
    X(repeat, INT, POINT)                       \
    X(steps, INT, SETTING)                      \
    X(status, TEXT, RESULT)                     \
    X(exit_code, INT, RESULT)                   \
    X(signal, INT, RESULT)                      \
    X(params, INT, RESULT)                      \
    X(trainable_params, INT, RESULT)            \
    X(weight_mib, NUM, RESULT)                  \
    X(grad_mib, NUM, RESULT)                    \
    X(optimizer_mib, NUM, RESULT)               \
    X(baseline_rss_mib, NUM, RESULT)            \
    X(peak_rss_mib, NUM, RESULT)                \
    X(peak_above_baseline_mib, NUM, RESULT)     \
    X(rusage_maxrss_mib, NUM, RESULT)           \
    X(tensor_peak_mib, NUM, RESULT)             \
    X(build_s, NUM, RESULT)                     \
    X(step1_s, NUM, RESULT)                     \
    X(step_mean_s, NUM, RESULT)                 \
    X(worker_wall_s, NUM, RESULT)               \
    X(loss, NUM, RESULT)                        \
    X(torch_version, TEXT, RESULT)              \
    X(threads, INT, RESULT)                     \
    X(blas, TEXT, RESULT)                       \
    X(blas_threads, INT, RESULT)                \
    X(cpu_model, TEXT, RESULT)                  \
    X(lora_rank, INT, SETTING)                  \
    X(lora_targets, TEXT, SETTING)              \
    X(finished_at, TEXT, RESULT)                \
    X(error, TEXT, RESULT)                      \
    X(model_source, TEXT, SETTING)              \
    X(config_hash, TEXT, SETTING)               \
    X(seed, INT, SETTING)                       \
    X(threads_requested, INT, SETTING)          \
    X(timeout_s, NUM, LIMIT)                    \
    X(mem_limit_mib, NUM, LIMIT)                \
    X(weights, TEXT, SETTING)                   \
    X(attention, TEXT, POINT)                   \
    X(forward_peak_mib, NUM, RESULT)            \
    X(backward_peak_mib, NUM, RESULT)           \
    X(optimizer_peak_mib, NUM, RESULT)          \
    X(forward_end_rss_mib, NUM, RESULT)         \
    X(backward_end_rss_mib, NUM, RESULT)        \
    X(optimizer_end_rss_mib, NUM, RESULT)       \
    X(holdout, INT, SETTING)                    \
    X(warm, INT, SETTING)                       \
    X(gpu_allocated_peak_mib, NUM, RESULT)      \
    X(gpu_reserved_peak_mib, NUM, RESULT)       \
    X(gpu_context_mib, NUM, RESULT)             \
    X(gpu_total_mib, NUM, RESULT)               \
    X(gpu_name, TEXT, RESULT)                   \
    X(cuda_version, TEXT, RESULT)               \
    X(driver_version, TEXT, RESULT)             \
    X(start_s, NUM, RESULT)                     \
    X(init_s, NUM, RESULT)                      \
    X(command, TEXT, SETTING)                   \
    X(memory_method, TEXT, RESULT)              \
    X(measured_by, TEXT, SETTING)               \
    X(forward_gpu_allocated_peak_mib, NUM, RESULT) \
    X(backward_gpu_allocated_peak_mib, NUM, RESULT) \
    X(optimizer_gpu_allocated_peak_mib, NUM, RESULT) \
    X(forward_gpu_reserved_peak_mib, NUM, RESULT) \
    X(backward_gpu_reserved_peak_mib, NUM, RESULT) \
    X(optimizer_gpu_reserved_peak_mib, NUM, RESULT)

enum peaks_column {
    PEAKS_COL_none = -1, /* no column (a worker report row's own, point/worker_report.h) */
#define PEAKS_ENUM(name, type, role) PEAKS_COL_##name,
    PEAKS_COLUMNS(PEAKS_ENUM)
#undef PEAKS_ENUM
    PEAKS_N_COLUMNS
};

/* Files from peakfit versions before model_source end at error: `fit`
 * still reads them, and those of any version since (the columns each lacks
 * are unknown: its header is a prefix of this one); a resumed run does not. */
enum { PEAKS_OLD_COLUMNS = PEAKS_COL_model_source };

enum peaks_type { PEAKS_TEXT, PEAKS_INT, PEAKS_NUM };
enum peaks_role { PEAKS_POINT, PEAKS_SETTING, PEAKS_LIMIT, PEAKS_RESULT };

struct peaks_column_info {
    const char *name;
    enum peaks_type type;
    enum peaks_role role;
};
extern const struct peaks_column_info peaks_columns[PEAKS_N_COLUMNS];

/* The header line, without its end of line. */
const char *peaks_header(void);

/* Checks a header's names against the columns, in order. Accepts exactly
 * this version's columns, or also (old_ok) an older version's (the first
 * PEAKS_OLD_COLUMNS or more). Returns 0, or -1 with "PATH:1: header differs from
 * this version's peaks.csv at column N (\"x\", expected \"y\")" in err,
 * followed by ": it is from another peakfit version" when the header is
 * an older or newer version's. */
int peaks_header_check(char *const *names, int n, int old_ok, const char *path, char *err, size_t errlen);

/* Checks each field by its column's type (n fields, the first n columns)
 * and that point_id and status are not empty. Returns 0, or -1 with the
 * reason (e.g. "batch \"x\" is not a whole number") in why. */
int peaks_row_check(char *const *fields, int n, char *why, size_t whylen);

/* A checked NUM or INT field's value; -1 when it is empty (unknown). */
double peaks_number(const char *field);
#endif
