/* peaks_columns.h: the columns of peaks.csv, written once. The runner's
 * writer, the resume check and the fit's reader all walk this list, so a
 * measured column is added by adding its row here (at the end: files
 * written by older versions must stay readable by `fit`) plus the code
 * that fills it; a setting's column is its row's in the settings table
 * (settings/setting_rows.h: NEW_COLUMN), after these.
 *
 * X(name, type, role, what). Units are part of each name.
 *   type: how every reader checks the field: TEXT (any text), INT (a whole
 *         number), NUM (a finite number); INT and NUM are empty when unknown.
 *   role: POINT (what the point is: in its id), SETTING (how it was
 *         measured: a resumed run refuses a row whose setting differs from
 *         the sweep's), LIMIT (a limit a failure depends on: a timeout or
 *         watchdog oom under a smaller limit is measured again), RESULT.
 *   what: what it holds, in Markdown: docs/peaks-csv.md's column
 *         (`peakfit columns`, settings/peaks_columns_doc.c). */
#ifndef PEAKFIT_PEAKS_COLUMNS_H
#define PEAKFIT_PEAKS_COLUMNS_H
#include <stddef.h>
#include "settings/setting_rows.h"

#define PEAKS_FIXED_COLUMNS(X)                                                                                           \
    X(point_id, TEXT, POINT,                                                                                         \
      "the point's key: `job/model/device/technique[/loraR-targets]/attention/bB/sS/stSTEPS/rREPEAT`")               \
    X(job, TEXT, POINT,                                                                                              \
      "the sweep section it comes from")                                                                             \
    X(model, TEXT, POINT,                                                                                            \
      "the model's name: a preset's, else the last part of its config's `_name_or_path`, else the folder holding "   \
      "`config.json`")                                                                                               \
    X(device, TEXT, POINT,                                                                                           \
      "`cpu`, `cuda`, `mps`")                                                                                        \
    X(technique, TEXT, POINT,                                                                                        \
      "see [Techniques](measurement.md#techniques)")                                                                 \
    X(batch, INT, POINT,                                                                                             \
      "micro-batch (0 for `load`)")                                                                                  \
    X(seq_len, INT, POINT,                                                                                           \
      "sequence length (0 for `load`)")                                                                              \
    X(tokens, INT, POINT,                                                                                            \
      "batch × seq_len")                                                                                             \
    X(repeat, INT, POINT,                                                                                            \
      "0 … repeats − 1")                                                                                             \
    X(steps, INT, SETTING,                                                                                           \
      "training steps run (0 for `load`)")                                                                           \
    X(status, TEXT, RESULT,                                                                                          \
      "`ok`, `oom`, `killed`, `timeout`, `crashed`, `error`")                                                        \
    X(exit_code, INT, RESULT,                                                                                        \
      "the worker's exit status (−1 when a signal ended it)")                                                        \
    X(signal, INT, RESULT,                                                                                           \
      "the signal that ended it, or 0")                                                                              \
    X(params, INT, RESULT,                                                                                           \
      "parameters in the model")                                                                                     \
    X(trainable_params, INT, RESULT,                                                                                 \
      "parameters the optimizer updates")                                                                            \
    X(weight_mib, NUM, RESULT,                                                                                       \
      "bytes of the weights, as the worker found them")                                                              \
    X(grad_mib, NUM, RESULT,                                                                                         \
      "bytes of the gradients")                                                                                      \
    X(optimizer_mib, NUM, RESULT,                                                                                    \
      "bytes of AdamW's state")                                                                                      \
    X(baseline_rss_mib, NUM, RESULT,                                                                                 \
      "the worker's RSS before the model was built")                                                                 \
    X(peak_rss_mib, NUM, RESULT,                                                                                     \
      "its VmHWM at the end")                                                                                        \
    X(peak_above_baseline_mib, NUM, RESULT,                                                                          \
      "the difference: what the fit uses")                                                                           \
    X(rusage_maxrss_mib, NUM, RESULT,                                                                                \
      "the parent's `wait4` figure (for comparison only)")                                                           \
    X(tensor_peak_mib, NUM, RESULT,                                                                                  \
      "allocator-level peak of live tensor bytes above the baseline")                                                \
    X(build_s, NUM, RESULT,                                                                                          \
      "time to build the model")                                                                                     \
    X(step1_s, NUM, RESULT,                                                                                          \
      "the first step (with `warm = 0` it also allocates AdamW's state)")                                            \
    X(step_mean_s, NUM, RESULT,                                                                                      \
      "mean of the steps after the first (every step counts: no cap); the one step when only one ran")               \
    X(worker_wall_s, NUM, RESULT,                                                                                    \
      "the worker's wall time")                                                                                      \
    X(loss, NUM, RESULT,                                                                                             \
      "the last step's loss")                                                                                        \
    X(torch_version, TEXT, RESULT,                                                                                   \
      "libtorch's version")                                                                                          \
    X(threads, INT, RESULT,                                                                                          \
      "intra-op threads libtorch used")                                                                              \
    X(blas, TEXT, RESULT,                                                                                            \
      "the library serving `sgemm_` in the worker")                                                                  \
    X(blas_threads, INT, RESULT,                                                                                     \
      "OpenBLAS's threads")                                                                                          \
    X(cpu_model, TEXT, RESULT,                                                                                       \
      "the CPU")                                                                                                     \
    X(lora_rank, INT, SETTING,                                                                                       \
      "r, for the LoRA techniques")                                                                                  \
    X(lora_targets, TEXT, SETTING,                                                                                   \
      "projections with adapters, for the LoRA techniques")                                                          \
    X(finished_at, TEXT, RESULT,                                                                                     \
      "UTC time the row was written")                                                                                \
    X(error, TEXT, RESULT,                                                                                           \
      "why a failed point failed")                                                                                   \
    X(model_source, TEXT, SETTING,                                                                                   \
      "the preset's name, or the canonical path of the model's `config.json`")                                       \
    X(config_hash, TEXT, SETTING,                                                                                    \
      "FNV-1a of that `config.json`'s bytes (empty for a preset)")                                                   \
    X(seed, INT, SETTING,                                                                                            \
      "the weight initialisation seed")                                                                              \
    X(threads_requested, INT, SETTING,                                                                               \
      "the sweep's `threads` (0: libtorch's default)")                                                               \
    X(timeout_s, NUM, LIMIT,                                                                                         \
      "the point's timeout")                                                                                         \
    X(mem_limit_mib, NUM, LIMIT,                                                                                     \
      "its memory limit above the baseline (empty for none)")                                                        \
    X(weights, TEXT, SETTING,                                                                                        \
      "the weights loaded: a `.safetensors` file, a sharded index or a model folder (empty for random weights)")     \
    X(attention, TEXT, POINT,                                                                                        \
      "`sdpa` or `eager`: how attention kept what backward needs (empty in files from before this column: those "    \
      "were eager)")                                                                                                 \
    X(forward_peak_mib, NUM, RESULT,                                                                                 \
      "allocator-level peak of live tensors in the forward phase (to the loss), above the baseline, highest over "   \
      "the steps")                                                                                                   \
    X(backward_peak_mib, NUM, RESULT,                                                                                \
      "the same in the backward phase (empty without training)")                                                     \
    X(optimizer_peak_mib, NUM, RESULT,                                                                               \
      "the same in the optimizer step (empty without training)")                                                     \
    X(forward_end_rss_mib, NUM, RESULT,                                                                              \
      "RSS above the baseline when the forward phase ended (last step)")                                             \
    X(backward_end_rss_mib, NUM, RESULT,                                                                             \
      "RSS above the baseline when the backward phase ended")                                                        \
    X(optimizer_end_rss_mib, NUM, RESULT,                                                                            \
      "RSS above the baseline when the optimizer step ended")                                                        \
    X(holdout, INT, SETTING,                                                                                         \
      "1 for a point of the sweep's `holdout` key (measured, kept out of the fit), else 0")                          \
    X(warm, INT, SETTING,                                                                                            \
      "1 when AdamW's state was made before the first step (`warm` key), 0 when the first step made it; 0 for "      \
      "techniques without an optimizer")                                                                             \
    X(gpu_allocated_peak_mib, NUM, RESULT,                                                                           \
      "GPU rows: the caching allocator's peak of live tensor bytes since the baseline "                              \
      "(`torch.cuda.max_memory_allocated`); empty on cpu")                                                           \
    X(gpu_reserved_peak_mib, NUM, RESULT,                                                                            \
      "GPU rows: the peak of what the caching allocator held from the device (`max_memory_reserved`)")               \
    X(gpu_context_mib, NUM, RESULT,                                                                                  \
      "GPU rows: used on the device at the baseline outside the allocator (CUDA context, cuBLAS, libraries)")        \
    X(gpu_total_mib, NUM, RESULT,                                                                                    \
      "GPU rows: the device's memory")                                                                               \
    X(gpu_name, TEXT, RESULT,                                                                                        \
      "GPU rows: the device, e.g. `NVIDIA H200`")                                                                    \
    X(cuda_version, TEXT, RESULT,                                                                                    \
      "GPU rows: the CUDA runtime peakfit runs on")                                                                  \
    X(driver_version, TEXT, RESULT,                                                                                  \
      "GPU rows: the NVIDIA driver's version (from NVML; where NVML cannot be opened, the CUDA version the driver "  \
      "supports)")                                                                                                   \
    X(start_s, NUM, RESULT,                                                                                          \
      "from the runner's fork to the worker's `main`: exec and dynamic loading (libtorch's)")                        \
    X(init_s, NUM, RESULT,                                                                                           \
      "the worker's `pf_init`: the counting allocator, the thread pools, the warm-up matmul")                        \
    X(command, TEXT, SETTING,                                                                                        \
      "a command job's command as run, each word shell-quoted, after the variables that hold its values with "       \
      "`shell = true` (with the sweep's `threads`); empty for peakfit's worker ([own-script.md](own-script.md))")    \
    X(memory_method, TEXT, RESULT,                                                                                   \
      "how `peak_rss_mib` was measured: `vmhwm` (the worker's own VmHWM), `tree-poll` (a command's whole process "   \
      "tree, sampled every 20 ms, and the largest `ru_maxrss`)")                                                     \
    X(measured_by, TEXT, SETTING,                                                                                    \
      "what measured the point: `worker` (peakfit's built-in worker) or `command` and the hash of the job's "        \
      "command as written (one per command); part of the fit's group key, so a command job and the built-in worker " \
      "in one directory are two fits")                                                                               \
    X(forward_gpu_allocated_peak_mib, NUM, RESULT,                                                                   \
      "GPU rows: the caching allocator's peak of live tensor bytes within the forward phase, highest over the "      \
      "steps (CUDA; MPS: its bytes at the phase's end); empty on cpu")                                               \
    X(backward_gpu_allocated_peak_mib, NUM, RESULT,                                                                  \
      "GPU rows: as forward_gpu_allocated_peak_mib, in the backward phase")                                          \
    X(optimizer_gpu_allocated_peak_mib, NUM, RESULT,                                                                 \
      "GPU rows: as forward_gpu_allocated_peak_mib, in the optimizer step")                                          \
    X(forward_gpu_reserved_peak_mib, NUM, RESULT,                                                                    \
      "GPU rows: the caching allocator's peak of reserved bytes within the forward phase, highest over the steps "   \
      "(MPS: driver-allocated bytes at the phase's end); empty on cpu")                                              \
    X(backward_gpu_reserved_peak_mib, NUM, RESULT,                                                                   \
      "GPU rows: as forward_gpu_reserved_peak_mib, in the backward phase")                                           \
    X(optimizer_gpu_reserved_peak_mib, NUM, RESULT,                                                                  \
      "GPU rows: as forward_gpu_reserved_peak_mib, in the optimizer step")                                           \
    X(tree_peak_rss_mib, NUM, RESULT,                                                                                \
      "a command job's whole process tree's peak (all its ranks together); empty for peakfit's worker")              \
    X(rank_peaks_mib, TEXT, RESULT,                                                                                  \
      "a command job of several ranks (processes that report in `PEAKFIT_REPORT_DIR` or carry `RANK`): each rank's " \
      "`RANK:RSS:TENSOR`, its peak above its baseline and its allocator-level peak (empty when it reported none), " \
      "in MiB, separated by spaces; the row's other measured columns are then the largest rank's "                  \
      "([own-script.md](own-script.md#ranks))")                                                                    \
    X(layers, INT, SETTING,                                                                                          \
      "a slice's decoder layers (`layers` key): the model was built with this many, everything else from its "      \
      "config; empty for the config's own depth")                                                                    \
    X(optimizer, TEXT, SETTING,                                                                                      \
      "the optimizer the step ran (`optimizer` key; `auto` resolved for the device): adamw, adamw-foreach, "         \
      "adamw-fused, sgd; empty for techniques without one")                                                          \
    X(zero_grad, TEXT, SETTING,                                                                                      \
      "what zero_grad left in the gradients (`zero_grad` key): none (freed) or zeros (kept, zeroed); empty for "     \
      "techniques without an optimizer")

/* Measured columns added after the settings' own columns (none yet):
 * a column already written never moves (tests/peaks_header_test.sh). */
#define PEAKS_LATER_COLUMNS(X)

/* Every column: the fixed ones, then each setting's own, made from its
 * row (settings/setting_rows.h, NEW_COLUMN), then the later measured ones. */
#define PEAKS_COLUMNS(X)    \
    PEAKS_FIXED_COLUMNS(X) \
    SETTING_COLUMNS(X)     \
    PEAKS_LATER_COLUMNS(X)

/* The fixed columns' count: a file of the version just before the first
 * setting's own column has exactly these. */
enum {
#define PEAKS_COUNT(name, type, role, what) +1
    PEAKS_N_FIXED_COLUMNS = 0 PEAKS_FIXED_COLUMNS(PEAKS_COUNT)
#undef PEAKS_COUNT
};

enum peaks_column {
    PEAKS_COL_none = -1, /* no column (a worker report row's own, protocol/worker_report.h) */
#define PEAKS_ENUM(name, type, role, what) PEAKS_COL_##name,
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
    const char *what; /* what it holds, in Markdown */
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
