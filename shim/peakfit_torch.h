/* peakfit_torch.h: the C API over libtorch. Nothing C++ crosses this line:
 * handles are opaque, every call returns a pf_status, and the message of a
 * failed call is read with pf_last_error(). */
#ifndef PEAKFIT_TORCH_H
#define PEAKFIT_TORCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PF_OK = 0,
    PF_ERR = 1,          /* any other failure; see pf_last_error() */
    PF_ERR_OOM = 2,      /* an allocation failed */
    PF_ERR_ARG = 3       /* the caller passed something invalid */
} pf_status;

/* A technique's number format (the precision column below). */
enum { PF_FP32 = 0, PF_BF16 = 1, PF_AMP_BF16 = 2 };

/* Every technique, written once: X(ID, name, steps, training, lora,
 * checkpoint, precision, what runs). The enum, the names users write, and every property the
 * shim, the sweep parser, the runner and the reports ask about come from
 * this list; adding a technique is one row here plus the code that runs it.
 *   steps:      runs steps on batch x seq_len tokens (load only builds)
 *   training:   backward and an AdamW step (else no optimizer state)
 *   lora:       frozen base with rank-r adapters (lora_rank, lora_targets)
 *   checkpoint: each decoder layer recomputed in backward
 *   precision:  PF_FP32; PF_BF16 (weights, activations, grads and AdamW state
 *               in bfloat16); PF_AMP_BF16 (fp32 weights, grads and AdamW state,
 *               forward and loss under bf16 autocast, as torch.autocast) */
#define PF_TECHNIQUES(X)                                                                                \
    X(LOAD, "load", 0, 0, 0, 0, 0, "builds the model; no step")                                         \
    X(INFERENCE, "inference", 1, 0, 0, 0, 0, "eval mode, no grad, forward only")                        \
    X(FULL, "full", 1, 1, 0, 0, 0, "fp32, AdamW over every weight")                                     \
    X(FULL_CKPT, "full+ckpt", 1, 1, 0, 1, 0, "as full, each decoder layer recomputed in backward")      \
    X(BF16, "bf16", 1, 1, 0, 0, 1, "weights, activations, grads and AdamW state in bf16")               \
    X(LORA, "lora", 1, 1, 1, 0, 0, "frozen fp32 base, AdamW over rank-r adapters")                      \
    X(LORA_CKPT, "lora+ckpt", 1, 1, 1, 1, 0, "as lora, with per-layer checkpointing")                  \
    X(AMP_BF16, "amp-bf16", 1, 1, 0, 0, 2, "fp32 weights and AdamW state, forward under bf16 autocast")

typedef enum {
#define PF_TECH_ENUM_(id, name, steps, training, lora, checkpoint, precision, help) PF_TECH_##id,
    PF_TECHNIQUES(PF_TECH_ENUM_)
#undef PF_TECH_ENUM_
    PF_TECH_COUNT
} pf_technique;

/* A technique's row of PF_TECHNIQUES. */
typedef struct {
    const char *name;
    int steps, training, lora, checkpoint, precision;
    const char *help;
} pf_technique_info;

/* The row of t; an out-of-range t gets a row named "?" with no property. */
static inline const pf_technique_info *pf_technique_info_of(pf_technique t)
{
    static const pf_technique_info rows[PF_TECH_COUNT + 1] = {
#define PF_TECH_ROW_(id, name, steps, training, lora, checkpoint, precision, help) \
        {name, steps, training, lora, checkpoint, precision, help},
        PF_TECHNIQUES(PF_TECH_ROW_)
#undef PF_TECH_ROW_
        {"?", 0, 0, 0, 0, 0, ""}};
    return &rows[(int)t >= 0 && (int)t < PF_TECH_COUNT ? (int)t : PF_TECH_COUNT];
}

/* Bits of pf_train_options.lora_targets: which projections get adapters. */
enum {
    PF_LORA_Q = 1 << 0, PF_LORA_K = 1 << 1, PF_LORA_V = 1 << 2,
    PF_LORA_O = 1 << 3, PF_LORA_GATE = 1 << 4, PF_LORA_UP = 1 << 5,
    PF_LORA_DOWN = 1 << 6
};

/* A Llama-family decoder, in Hugging Face config.json terms. */
typedef struct {
    int64_t hidden_size;
    int64_t num_layers;
    int64_t num_heads;
    int64_t num_kv_heads;
    int64_t intermediate_size;
    int64_t vocab_size;
    int tie_embeddings;
    double rope_theta;
    double rms_norm_eps;
} pf_model_config;

/* How attention keeps what backward needs (transformers' attn_implementation). */
typedef enum {
    PF_ATTN_SDPA = 0,    /* output and logsumexp only, as PyTorch 2's fused kernels (the default) */
    PF_ATTN_EAGER,       /* the [b, heads, s, s] probabilities are kept */
    PF_ATTN_COUNT
} pf_attention;

typedef struct {
    pf_technique technique;
    int lora_rank;
    unsigned lora_targets;
    double learning_rate;
    pf_attention attention;
} pf_train_options;

/* Byte counts of what a model holds, read off its tensors. */
typedef struct {
    int64_t params;
    int64_t trainable_params;
    int64_t weight_bytes;
    int64_t grad_bytes;       /* grads alive after the last backward */
    int64_t optimizer_bytes;  /* AdamW state tensors */
} pf_model_stats;

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

/* Random, seeded weights: memory does not depend on their values. */
pf_status pf_model_new(const pf_model_config *config,
                       const pf_train_options *options, uint64_t seed,
                       const char *device, pf_model **out);
/* Copies weights from a safetensors file; names are Hugging Face's. The
 * header is checked first, as pf_safetensors_check does. */
pf_status pf_model_load_safetensors(pf_model *model, const char *path);
/* Checks the n bytes of a safetensors file (header length, JSON header,
 * every entry's dtype, shape and data_offsets against the data section,
 * no overlaps, no duplicate names). PF_OK, or PF_ERR with
 * "NAME: tensor T: what" in pf_last_error(). Needs no pf_init(). */
pf_status pf_safetensors_check(const char *name, const void *bytes, size_t n);
/* One step of the model's technique on random token ids: forward, and for
 * training techniques cross-entropy, backward, AdamW step, zero_grad. */
pf_status pf_model_step(pf_model *model, int64_t batch, int64_t seq_len,
                        double *loss_out);
/* Forward and backward only, for checking techniques against each other:
 * the loss and the L2 norm of all gradients; the gradients are then freed. */
pf_status pf_model_loss_and_grad_norm(pf_model *model, int64_t batch,
                                      int64_t seq_len, uint64_t data_seed,
                                      double *loss_out, double *grad_norm_out);
pf_status pf_model_stats_get(const pf_model *model, pf_model_stats *out);
void pf_model_free(pf_model *model);

#ifdef __cplusplus
}
#endif
#endif
