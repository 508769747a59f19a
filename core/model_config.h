/* model_config.h: a decoder in Hugging Face config.json terms, its layers'
 * weights and norms by Hugging Face name (for the shim's builder and for
 * models/param_count.c's arithmetic), the training it is built for, and
 * what its tensors hold. */
#ifndef PEAKFIT_CORE_MODEL_CONFIG_H
#define PEAKFIT_CORE_MODEL_CONFIG_H
#include <stdint.h>
#include "core/attention.h"
#include "core/optimizer.h"
#include "core/technique.h"

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

/* c cut to its first layers decoder layers (a slice; the `layers` setting),
 * everything else as it is; layers <= 0: c itself. */
static inline pf_model_config pf_config_slice(const pf_model_config *c, int64_t layers)
{
    pf_model_config s = *c;
    if (layers > 0)
        s.num_layers = layers;
    return s;
}

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

typedef struct {
    pf_technique technique;
    int lora_rank;
    unsigned lora_targets;
    double learning_rate, weight_decay;
    pf_attention attention;
    pf_optimizer optimizer; /* auto resolves by the device (optimizer_resolved) */
    pf_zero_grad zero_grad;
} pf_train_options;

/* Byte counts of what a model holds, read off its tensors. */
typedef struct {
    int64_t params;
    int64_t trainable_params;
    int64_t weight_bytes;
    int64_t grad_bytes;       /* grads alive after the last backward */
    int64_t optimizer_bytes;  /* AdamW state tensors */
} pf_model_stats;
#endif
