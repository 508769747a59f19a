/* peaks_columns_doc.c: what each column of peaks.csv holds, and
 * docs/peaks-csv.md printed from it with the column table's own order,
 * types and roles (`peakfit columns`; tests/docs_test.sh checks that the
 * committed file is this output). */
#include <stdio.h>
#include "util/peaks_columns.h"
#include "util/peaks_columns_doc.h"

/* Indexed by column: a column added to PEAKS_COLUMNS without a row here is
 * NULL, which tests/results_test.c refuses. */
static const char *const column_what[PEAKS_N_COLUMNS] = {
    [PEAKS_COL_point_id] = "the point's key: `job/model/device/technique[/loraR-targets]/attention/bB/sS/stSTEPS/rREPEAT`",
    [PEAKS_COL_job] = "the sweep section it comes from",
    [PEAKS_COL_model] = "the model's name: a preset's, else the last part of its config's `_name_or_path`, else the folder holding `config.json`",
    [PEAKS_COL_device] = "`cpu`, `cuda`, `mps`",
    [PEAKS_COL_technique] = "see [Techniques](measurement.md#techniques)",
    [PEAKS_COL_batch] = "micro-batch (0 for `load`)",
    [PEAKS_COL_seq_len] = "sequence length (0 for `load`)",
    [PEAKS_COL_tokens] = "batch × seq_len",
    [PEAKS_COL_repeat] = "0 … repeats − 1",
    [PEAKS_COL_steps] = "training steps run (0 for `load`)",
    [PEAKS_COL_status] = "`ok`, `oom`, `killed`, `timeout`, `crashed`, `error`",
    [PEAKS_COL_exit_code] = "the worker's exit status (−1 when a signal ended it)",
    [PEAKS_COL_signal] = "the signal that ended it, or 0",
    [PEAKS_COL_params] = "parameters in the model",
    [PEAKS_COL_trainable_params] = "parameters the optimizer updates",
    [PEAKS_COL_weight_mib] = "bytes of the weights, as the worker found them",
    [PEAKS_COL_grad_mib] = "bytes of the gradients",
    [PEAKS_COL_optimizer_mib] = "bytes of AdamW's state",
    [PEAKS_COL_baseline_rss_mib] = "the worker's RSS before the model was built",
    [PEAKS_COL_peak_rss_mib] = "its VmHWM at the end",
    [PEAKS_COL_peak_above_baseline_mib] = "the difference: what the fit uses",
    [PEAKS_COL_rusage_maxrss_mib] = "the parent's `wait4` figure (for comparison only)",
    [PEAKS_COL_tensor_peak_mib] = "allocator-level peak of live tensor bytes above the baseline",
    [PEAKS_COL_build_s] = "time to build the model",
    [PEAKS_COL_step1_s] = "the first step (with `warm = 0` it also allocates AdamW's state)",
    [PEAKS_COL_step_mean_s] = "mean of the steps after the first (every step counts: no cap); the one step when only one ran",
    [PEAKS_COL_worker_wall_s] = "the worker's wall time",
    [PEAKS_COL_loss] = "the last step's loss",
    [PEAKS_COL_torch_version] = "libtorch's version",
    [PEAKS_COL_threads] = "intra-op threads libtorch used",
    [PEAKS_COL_blas] = "the library serving `sgemm_` in the worker",
    [PEAKS_COL_blas_threads] = "OpenBLAS's threads",
    [PEAKS_COL_cpu_model] = "the CPU",
    [PEAKS_COL_lora_rank] = "r, for the LoRA techniques",
    [PEAKS_COL_lora_targets] = "projections with adapters, for the LoRA techniques",
    [PEAKS_COL_finished_at] = "UTC time the row was written",
    [PEAKS_COL_error] = "why a failed point failed",
    [PEAKS_COL_model_source] = "the preset's name, or the canonical path of the model's `config.json`",
    [PEAKS_COL_config_hash] = "FNV-1a of that `config.json`'s bytes (empty for a preset)",
    [PEAKS_COL_seed] = "the weight initialisation seed",
    [PEAKS_COL_threads_requested] = "the sweep's `threads` (0: libtorch's default)",
    [PEAKS_COL_timeout_s] = "the point's timeout",
    [PEAKS_COL_mem_limit_mib] = "its memory limit above the baseline (empty for none)",
    [PEAKS_COL_weights] = "the weights loaded: a `.safetensors` file, a sharded index or a model folder (empty for random weights)",
    [PEAKS_COL_attention] = "`sdpa` or `eager`: how attention kept what backward needs (empty in files from before this column: those were eager)",
    [PEAKS_COL_forward_peak_mib] = "allocator-level peak of live tensors in the forward phase (to the loss), above the baseline, highest over the steps",
    [PEAKS_COL_backward_peak_mib] = "the same in the backward phase (empty without training)",
    [PEAKS_COL_optimizer_peak_mib] = "the same in the optimizer step (empty without training)",
    [PEAKS_COL_forward_end_rss_mib] = "RSS above the baseline when the forward phase ended (last step)",
    [PEAKS_COL_backward_end_rss_mib] = "RSS above the baseline when the backward phase ended",
    [PEAKS_COL_optimizer_end_rss_mib] = "RSS above the baseline when the optimizer step ended",
    [PEAKS_COL_holdout] = "1 for a point of the sweep's `holdout` key (measured, kept out of the fit), else 0",
    [PEAKS_COL_warm] = "1 when AdamW's state was made before the first step (`warm` key), 0 when the first step made it; 0 for techniques without an optimizer",
    [PEAKS_COL_gpu_allocated_peak_mib] = "GPU rows: the caching allocator's peak of live tensor bytes since the baseline (`torch.cuda.max_memory_allocated`); empty on cpu",
    [PEAKS_COL_gpu_reserved_peak_mib] = "GPU rows: the peak of what the caching allocator held from the device (`max_memory_reserved`)",
    [PEAKS_COL_gpu_context_mib] = "GPU rows: used on the device at the baseline outside the allocator (CUDA context, cuBLAS, libraries)",
    [PEAKS_COL_gpu_total_mib] = "GPU rows: the device's memory",
    [PEAKS_COL_gpu_name] = "GPU rows: the device, e.g. `NVIDIA H200`",
    [PEAKS_COL_cuda_version] = "GPU rows: the CUDA runtime peakfit runs on",
    [PEAKS_COL_driver_version] = "GPU rows: the NVIDIA driver's version (from NVML; where NVML cannot be opened, the CUDA version the driver supports)",
    [PEAKS_COL_start_s] = "from the runner's fork to the worker's `main`: exec and dynamic loading (libtorch's)",
    [PEAKS_COL_init_s] = "the worker's `pf_init`: the counting allocator, the thread pools, the warm-up matmul",
    [PEAKS_COL_command] = "a command job's command as run, each word shell-quoted, after the variables that hold its values "
                           "with `shell = true` (with the sweep's `threads`); "
                          "empty for peakfit's worker ([own-script.md](own-script.md))",
    [PEAKS_COL_memory_method] = "how `peak_rss_mib` was measured: `vmhwm` (the worker's own VmHWM), `tree-poll` "
                                "(a command's whole process tree, sampled every 20 ms, and the largest `ru_maxrss`)",
    [PEAKS_COL_measured_by] = "what measured the point: `worker` (peakfit's built-in worker) or `command` and the "
                              "hash of the job's command as written (one per command); part of the fit's group key, "
                              "so a command job and the built-in worker in one directory are two fits",
    [PEAKS_COL_forward_gpu_allocated_peak_mib] = "GPU rows: the caching allocator's peak of live tensor bytes within the forward phase, highest over the steps (CUDA; MPS: its bytes at the phase's end); empty on cpu",
    [PEAKS_COL_backward_gpu_allocated_peak_mib] = "GPU rows: as forward_gpu_allocated_peak_mib, in the backward phase",
    [PEAKS_COL_optimizer_gpu_allocated_peak_mib] = "GPU rows: as forward_gpu_allocated_peak_mib, in the optimizer step",
    [PEAKS_COL_forward_gpu_reserved_peak_mib] = "GPU rows: the caching allocator's peak of reserved bytes within the forward phase, highest over the steps (MPS: driver-allocated bytes at the phase's end); empty on cpu",
    [PEAKS_COL_backward_gpu_reserved_peak_mib] = "GPU rows: as forward_gpu_reserved_peak_mib, in the backward phase",
    [PEAKS_COL_optimizer_gpu_reserved_peak_mib] = "GPU rows: as forward_gpu_reserved_peak_mib, in the optimizer step",
};

const char *peaks_column_what(int column) { return column_what[column]; }

static const char *const type_names[] = {[PEAKS_TEXT] = "text", [PEAKS_INT] = "whole number", [PEAKS_NUM] = "number"};
static const char *const role_names[] = {
    [PEAKS_POINT] = "point",
    [PEAKS_SETTING] = "setting",
    [PEAKS_LIMIT] = "limit",
    [PEAKS_RESULT] = "result",
};

void peaks_csv_markdown(FILE *out)
{
    fputs("# peaks.csv\n\n"
          "<!-- Generated by `bin/peakfit columns` (make docs) from util/peaks_columns.h and\n"
          "     util/peaks_columns_doc.c: edit those, not this file. -->\n\n"
          "One row per measurement, in the order they finished (a point measured again\n"
          "has a later row, and the last is the one used). The columns, in\n"
          "this order (units are part of the names); a number or whole number is empty\n"
          "when unknown. Role: *point* is what the point is (in its id); a *setting* is\n"
          "how it was measured (a resumed run refuses a row whose setting differs from\n"
          "the sweep's); a *limit* is one a failure depends on (a timeout or `oom` under\n"
          "a smaller limit is measured again); a *result* is what was measured. Files of\n"
          "older versions end earlier (columns are only ever appended). How rows are\n"
          "written, resumed and judged: [measurement.md](measurement.md).\n\n"
          "| column | type | role | what |\n|---|---|---|---|\n",
          out);
    for (int i = 0; i < PEAKS_N_COLUMNS; i++)
        fprintf(out, "| `%s` | %s | %s | %s |\n", peaks_columns[i].name, type_names[peaks_columns[i].type],
                role_names[peaks_columns[i].role], column_what[i] ? column_what[i] : "");
}
