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

/* A decoder's norms (pf_model_config.norm). */
enum {
    PF_NORM_RMS = 0,        /* x / rms(x) * w, w from 1 (Llama) */
    PF_NORM_RMS_OFFSET = 1, /* x / rms(x) * (1 + w), w from 0 (Gemma) */
    PF_NORM_LAYER = 2       /* LayerNorm with weight and bias (GPT-2) */
};
/* The MLP's activation (pf_model_config.activation). */
/* GELU_TANH is the fused gelu(x, "tanh") (gelu_pytorch_tanh); GELU_NEW the same
 * formula op by op, as transformers runs gelu_new (shim/decoder.cpp). */
enum { PF_ACT_SILU = 0, PF_ACT_GELU = 1, PF_ACT_GELU_TANH = 2, PF_ACT_RELU = 3, PF_ACT_GELU_NEW = 4 };
/* Architecture switches (pf_model_config.arch): what a family adds to the
 * Llama decoder. models/model_family.c gives each family its bits. */
enum {
    PF_ARCH_QKV_BIAS = 1 << 0,          /* q, k, v biases whatever attention_bias says (Qwen2) */
    PF_ARCH_QK_NORM = 1 << 1,           /* an RMSNorm over each head's q and k (Qwen3) */
    PF_ARCH_FUSED_QKV = 1 << 2,         /* one projection for q, k and v (Phi-3, GPT-2) */
    PF_ARCH_FUSED_GATE_UP = 1 << 3,     /* one projection for gate and up (Phi-3) */
    PF_ARCH_PLAIN_MLP = 1 << 4,         /* up, activation, down: no gate (GPT-2) */
    PF_ARCH_SANDWICH_NORMS = 1 << 5,    /* norms after attention and around the MLP (Gemma 2) */
    PF_ARCH_EMBED_SCALE = 1 << 6,       /* embeddings times sqrt(hidden_size) (Gemma) */
    PF_ARCH_LEARNED_POSITIONS = 1 << 7, /* a position table, no rotary embeddings (GPT-2) */
    PF_ARCH_GPT2_LAYOUT = 1 << 8        /* GPT-2's module names; Conv1D weights stored [in, out] */
};

/* A decoder, in Hugging Face config.json terms. The members after
 * rms_norm_eps are the family's switches: all zero is a Llama. */
typedef struct {
    int64_t hidden_size;
    int64_t num_layers;
    int64_t num_heads;
    int64_t num_kv_heads;
    int64_t intermediate_size;
    int64_t vocab_size;
    int tie_embeddings;
    double rope_theta;
    double rms_norm_eps;      /* every norm's epsilon (GPT-2's layer_norm_epsilon) */
    int64_t head_dim;         /* 0: hidden_size / num_heads */
    int norm;                 /* PF_NORM_* */
    int activation;           /* PF_ACT_* */
    unsigned arch;            /* PF_ARCH_* bits */
    int attention_bias;       /* q, k, v and o biases */
    int mlp_bias;             /* gate, up and down biases */
    int64_t max_positions;    /* rows of the position table (PF_ARCH_LEARNED_POSITIONS) */
    double attn_softcap;      /* eager scores become cap * tanh(scores / cap); 0: none */
    double final_softcap;     /* the same on the logits */
    double query_scale_base;  /* scores scaled by query_scale_base^-0.5; 0: head_dim */
} pf_model_config;

/* The head dimension c builds with. */
static inline int64_t pf_head_dim(const pf_model_config *c)
{
    return c->head_dim > 0 ? c->head_dim : c->num_heads > 0 ? c->hidden_size / c->num_heads : 0;
}

/* A decoder layer's weights, written once for the shim's builder and for
 * the arithmetic in models/param_count.c: each projection's role, its
 * Hugging Face name under the layer, in and out features, bias, and the
 * PF_LORA_* targets that put an adapter on it (a fused projection answers
 * to each of its parts, as PEFT targets the fused module). */
typedef enum {
    PF_PROJ_Q, PF_PROJ_K, PF_PROJ_V, PF_PROJ_QKV, PF_PROJ_O,
    PF_PROJ_GATE, PF_PROJ_UP, PF_PROJ_GATE_UP, PF_PROJ_DOWN, PF_PROJ_COUNT
} pf_projection_role;

typedef struct {
    pf_projection_role role;
    const char *name;
    int64_t in, out;
    int bias;
    unsigned lora_targets;
} pf_projection;

#define PF_LAYER_PROJECTIONS_MAX 7

static inline int pf_layer_projections(const pf_model_config *c, pf_projection p[PF_LAYER_PROJECTIONS_MAX])
{
    int gpt2 = (c->arch & PF_ARCH_GPT2_LAYOUT) != 0, n = 0;
    int64_t h = c->hidden_size, m = c->intermediate_size, d = pf_head_dim(c);
    int64_t qw = c->num_heads * d, kvw = c->num_kv_heads * d;
    int qkv_bias = c->attention_bias || (c->arch & PF_ARCH_QKV_BIAS);
    if (c->arch & PF_ARCH_FUSED_QKV)
        p[n++] = (pf_projection){PF_PROJ_QKV, gpt2 ? "attn.c_attn" : "self_attn.qkv_proj", h, qw + 2 * kvw,
                                 qkv_bias, PF_LORA_Q | PF_LORA_K | PF_LORA_V};
    else {
        p[n++] = (pf_projection){PF_PROJ_Q, "self_attn.q_proj", h, qw, qkv_bias, PF_LORA_Q};
        p[n++] = (pf_projection){PF_PROJ_K, "self_attn.k_proj", h, kvw, qkv_bias, PF_LORA_K};
        p[n++] = (pf_projection){PF_PROJ_V, "self_attn.v_proj", h, kvw, qkv_bias, PF_LORA_V};
    }
    p[n++] = (pf_projection){PF_PROJ_O, gpt2 ? "attn.c_proj" : "self_attn.o_proj", qw, h, c->attention_bias,
                             PF_LORA_O};
    if (c->arch & PF_ARCH_PLAIN_MLP)
        p[n++] = (pf_projection){PF_PROJ_UP, gpt2 ? "mlp.c_fc" : "mlp.up_proj", h, m, c->mlp_bias,
                                 PF_LORA_GATE | PF_LORA_UP};
    else if (c->arch & PF_ARCH_FUSED_GATE_UP)
        p[n++] = (pf_projection){PF_PROJ_GATE_UP, "mlp.gate_up_proj", h, 2 * m, c->mlp_bias,
                                 PF_LORA_GATE | PF_LORA_UP};
    else {
        p[n++] = (pf_projection){PF_PROJ_GATE, "mlp.gate_proj", h, m, c->mlp_bias, PF_LORA_GATE};
        p[n++] = (pf_projection){PF_PROJ_UP, "mlp.up_proj", h, m, c->mlp_bias, PF_LORA_UP};
    }
    p[n++] = (pf_projection){PF_PROJ_DOWN, gpt2 ? "mlp.c_proj" : "mlp.down_proj", m, h, c->mlp_bias,
                             PF_LORA_DOWN};
    return n;
}

/* A decoder layer's norms: where each sits, its name, its width. INPUT
 * comes before attention and PRE_MLP before the MLP (Llama's
 * post_attention_layernorm); AFTER_ATTN and AFTER_MLP normalise the
 * sublayers' outputs (Gemma 2); Q and K each head's queries and keys. */
typedef enum {
    PF_LN_INPUT, PF_LN_AFTER_ATTN, PF_LN_PRE_MLP, PF_LN_AFTER_MLP, PF_LN_Q, PF_LN_K, PF_LN_COUNT
} pf_layer_norm_role;

typedef struct {
    pf_layer_norm_role role;
    const char *name;
    int64_t dim;
} pf_layer_norm;

static inline int pf_layer_norms(const pf_model_config *c, pf_layer_norm n[PF_LN_COUNT])
{
    int k = 0;
    int64_t h = c->hidden_size;
    if (c->arch & PF_ARCH_GPT2_LAYOUT) {
        n[k++] = (pf_layer_norm){PF_LN_INPUT, "ln_1", h};
        n[k++] = (pf_layer_norm){PF_LN_PRE_MLP, "ln_2", h};
        return k;
    }
    n[k++] = (pf_layer_norm){PF_LN_INPUT, "input_layernorm", h};
    if (c->arch & PF_ARCH_SANDWICH_NORMS) {
        n[k++] = (pf_layer_norm){PF_LN_AFTER_ATTN, "post_attention_layernorm", h};
        n[k++] = (pf_layer_norm){PF_LN_PRE_MLP, "pre_feedforward_layernorm", h};
        n[k++] = (pf_layer_norm){PF_LN_AFTER_MLP, "post_feedforward_layernorm", h};
    } else {
        n[k++] = (pf_layer_norm){PF_LN_PRE_MLP, "post_attention_layernorm", h};
    }
    if (c->arch & PF_ARCH_QK_NORM) {
        n[k++] = (pf_layer_norm){PF_LN_Q, "self_attn.q_norm", pf_head_dim(c)};
        n[k++] = (pf_layer_norm){PF_LN_K, "self_attn.k_norm", pf_head_dim(c)};
    }
    return k;
}

/* Parameters of one norm of width dim. */
static inline int64_t pf_norm_params(const pf_model_config *c, int64_t dim)
{
    return c->norm == PF_NORM_LAYER ? 2 * dim : dim;
}

/* The weights outside the layers, by Hugging Face name: the token
 * embeddings, the position table (learned positions only), the layers'
 * list, the final norm, and the head (when not tied). */
typedef struct {
    const char *embed, *positions, *layers, *final_norm, *head;
} pf_model_names;

static inline pf_model_names pf_model_names_of(const pf_model_config *c)
{
    if (c->arch & PF_ARCH_GPT2_LAYOUT)
        return (pf_model_names){"transformer.wte", "transformer.wpe", "transformer.h", "transformer.ln_f", "lm_head"};
    return (pf_model_names){"model.embed_tokens", "model.embed_positions", "model.layers", "model.norm", "lm_head"};
}

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
 * training techniques cross-entropy, backward, AdamW step, zero_grad. */
pf_status pf_model_step(pf_model *model, int64_t batch, int64_t seq_len,
                        double *loss_out);
/* Materialises AdamW's state before the first step, zero-filled with step
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

/* The phases of a step, in order: X(ID, name). Forward to the loss,
 * backward, the optimizer step (inference has only the forward). */
#define PF_PHASES(X) X(FORWARD, "forward") X(BACKWARD, "backward") X(OPTIMIZER, "optimizer")
typedef enum {
#define PF_PHASE_ENUM_(id, name) PF_PHASE_##id,
    PF_PHASES(PF_PHASE_ENUM_)
#undef PF_PHASE_ENUM_
    PF_PHASE_COUNT
} pf_phase;

static inline const char *pf_phase_name(pf_phase p)
{
    static const char *const names[PF_PHASE_COUNT + 1] = {
#define PF_PHASE_NAME_(id, name) name,
        PF_PHASES(PF_PHASE_NAME_)
#undef PF_PHASE_NAME_
        "?"};
    return names[(int)p >= 0 && (int)p < PF_PHASE_COUNT ? (int)p : PF_PHASE_COUNT];
}

/* Per phase of pf_model_step: the allocator-level peak of live tensor
 * bytes within it, the highest over the steps run, and the process's RSS
 * when it ended in the last step; -1 for a phase that never ran. */
typedef struct {
    int64_t peak_bytes[PF_PHASE_COUNT];
    int64_t end_rss_bytes[PF_PHASE_COUNT];
} pf_model_phase_peaks;

pf_status pf_model_phase_peaks_get(const pf_model *model, pf_model_phase_peaks *out);

#ifdef __cplusplus
}
#endif
#endif
