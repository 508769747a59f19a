/* peakfit_torch.h: the C API over libtorch. Nothing C++ crosses this line:
 * handles are opaque, every call returns a pf_status, and the message of a
 * failed call is read with pf_last_error(). The domain it speaks of
 * (techniques, attention, model config, phases) is core/'s, plain C that
 * peakfit uses without libtorch. */
#ifndef PEAKFIT_TORCH_H
#define PEAKFIT_TORCH_H

#include <stddef.h>
#include <stdint.h>
#include "core/model_config.h"
#include "core/phase.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PF_OK = 0,
    PF_ERR = 1,          /* any other failure; see pf_last_error() */
    PF_ERR_OOM = 2,      /* an allocation failed */
    PF_ERR_ARG = 3       /* the caller passed something invalid */
} pf_status;

typedef struct pf_model pf_model;

const char *pf_last_error(void);

/* Installs the counting CPU allocator, sets the intra-op thread count
 * (0 keeps libtorch's default) and runs one small matmul so that the
 * thread pools exist before a baseline is taken. Call once, first. */
pf_status pf_init(int threads);
const char *pf_torch_version(void);
int pf_num_threads(void);
/* 1 when this build of libtorch can run on device ("cpu", "cuda", "mps"). */
int pf_device_available(const char *device);

/* Live and peak bytes of CPU tensor storage, counted by the allocator. */
int64_t pf_tensor_bytes_live(void);
int64_t pf_tensor_bytes_peak(void);
/* Starts the peak afresh from the bytes live now. */
void pf_tensor_bytes_reset_peak(void);

/* Memory on a GPU (cuda, cuda:N; mps where the build has it), as the
 * device's caching allocator counts it. Bytes; -1 where unknown. */
typedef struct {
    int64_t allocated_peak;   /* peak of live tensor bytes since the baseline (torch.cuda.max_memory_allocated) */
    int64_t reserved_peak;    /* peak of what the allocator held (torch.cuda.max_memory_reserved) */
    int64_t allocated_baseline; /* live tensor bytes at the baseline (cuBLAS workspace) */
    int64_t reserved_baseline;
    int64_t context;          /* in use on the device at the baseline outside the allocator (CUDA context, handles) */
    int64_t total;            /* the device's memory */
    int64_t ooms;             /* allocations the caching allocator refused since the baseline (CUDA's num_ooms); -1 where unknown */
    char name[96];            /* e.g. "NVIDIA H200" */
    char runtime_version[16]; /* CUDA runtime, e.g. "13.0" */
    char driver_version[32];  /* the driver's, e.g. "580.159.03" (NVML); without NVML the CUDA version it supports */
} pf_device_memory;

/* 1 when this build has the CUDA measurement compiled in (PF_WITH_CUDA). */
int pf_cuda_compiled(void);
/* Starts the device (context, a cuBLAS handle: one small matmul), records
 * what the process holds on it then, and restarts the allocator's peaks
 * from the bytes live now. Call after pf_init, before the model is built.
 * PF_ERR_ARG for a device that is not a GPU or not in this build. */
pf_status pf_device_memory_baseline(const char *device, pf_device_memory *out);
/* The peaks since the baseline, with the baseline's figures. MPS has no
 * peak counter: its peaks are the largest of the samples taken at the end
 * of each forward, backward and optimizer step. */
pf_status pf_device_memory_read(const char *device, pf_device_memory *out);
/* Caps the caching allocator at bytes (its per-process memory fraction of
 * the device): past it an allocation fails as out of memory. */
pf_status pf_device_memory_limit(const char *device, int64_t bytes);

/* PF_ERR_ARG, with the reason ("optimizer adamw-fused: libtorch 1.13.0
 * has no _fused_adamw_ for cpu (...)"), where this libtorch lacks what the
 * optimizer (auto resolved for device) needs on device; PF_OK otherwise.
 * Needs no pf_init(). */
pf_status pf_optimizer_check(pf_optimizer optimizer, const char *device);

/* Random, seeded weights: memory does not depend on their values.
 * PF_ERR_ARG, with the reason, for a config or options that cannot be
 * built, and for an optimizer this libtorch lacks on device (adamw-fused
 * before 2.4 on cpu). */
pf_status pf_model_new(const pf_model_config *config,
                       const pf_train_options *options, uint64_t seed,
                       const char *device, pf_model **out);
/* Copies weights from a safetensors file, or from the shards a sharded
 * checkpoint's model.safetensors.index.json (a path ending in .json) maps
 * them to; names are Hugging Face's, with or without the base model's
 * prefix. Each header is checked first, as pf_safetensors_check does; the
 * index's weight_map must agree with the shards, and every weight must be
 * given. */
pf_status pf_model_load_safetensors(pf_model *model, const char *path);
/* Checks the n bytes of a safetensors file (header length, JSON header,
 * every entry's dtype, shape and data_offsets against the data section,
 * no overlaps, no duplicate names). PF_OK, or PF_ERR with
 * "NAME: tensor T: what" in pf_last_error(). Needs no pf_init(). */
pf_status pf_safetensors_check(const char *name, const void *bytes, size_t n);
/* One step of the model's technique on random token ids: forward, and for
 * training techniques cross-entropy, backward, the optimizer's step
 * (options->optimizer) and zero_grad (options->zero_grad). */
pf_status pf_model_step(pf_model *model, int64_t batch, int64_t seq_len,
                        double *loss_out);
/* Materialises the optimizer's state before the first step, zero-filled with step
 * 0, as the first step would make it (and as a resumed run holds it), so
 * that step 1 is already a steady-state step: one such step reaches the
 * peak of two plain ones. Does nothing for techniques without an optimizer,
 * or for parameters that already have state. */
pf_status pf_model_warm_optimizer(pf_model *model);
/* Forward and backward only, for checking techniques against each other:
 * the loss and the L2 norm of all gradients; the gradients are then freed. */
pf_status pf_model_loss_and_grad_norm(pf_model *model, int64_t batch,
                                      int64_t seq_len, uint64_t data_seed,
                                      double *loss_out, double *grad_norm_out);
pf_status pf_model_stats_get(const pf_model *model, pf_model_stats *out);
void pf_model_free(pf_model *model);

/* Per phase of pf_model_step: the allocator-level peak of live tensor
 * bytes within it (the CPU counter: host tensors), the highest over the
 * steps run, and the process's RSS when it ended in the last step; on a
 * GPU also the device allocator's allocated and reserved bytes within it
 * (CUDA: the caching allocator's peak over the phase, the highest over the
 * steps; MPS keeps no peak: its bytes at the phase's end). -1 for a phase
 * that never ran, and for device_* on the CPU or with no device baseline. */
typedef struct {
    int64_t peak_bytes[PF_PHASE_COUNT];
    int64_t end_rss_bytes[PF_PHASE_COUNT];
    int64_t device_allocated_peak_bytes[PF_PHASE_COUNT];
    int64_t device_reserved_peak_bytes[PF_PHASE_COUNT];
} pf_model_phase_peaks;

pf_status pf_model_phase_peaks_get(const pf_model *model, pf_model_phase_peaks *out);

/* The process's memory now in bytes, or -1: what end_rss_bytes records.
 * The caller's process layer reads it (Linux's VmRSS, macOS's footprint);
 * the shim reads no system file itself. None set: end_rss_bytes is -1. */
typedef int64_t (*pf_rss_reader)(void);
void pf_set_rss_reader(pf_rss_reader reader);

#ifdef __cplusplus
}
#endif
#endif
