/* model_family.h: the decoder families peakfit builds, one row each,
 * written once: the config reader takes a family's defaults and the keys
 * it honours from its row, and puts its switches (core/model_config.h:
 * PF_ARCH_*, PF_NORM_*, PF_ACT_*) into pf_model_config, which the
 * arithmetic (models/param_count.c) and the shim's builder both walk. Also
 * the activations peakfit can run, and the config.json fields that would
 * change the architecture in a way no family implements (refused). */
#ifndef PEAKFIT_MODEL_FAMILY_H
#define PEAKFIT_MODEL_FAMILY_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/model_config.h"

/* Which config.json keys a family's transformers class reads
 * (struct config_field.reads, struct model_family.reads). */
enum {
    READS_HF_NAMES = 1 << 0,   /* hidden_size, num_hidden_layers, ..., rms_norm_eps, rope_theta */
    READS_GPT2_NAMES = 1 << 1, /* n_embd, n_layer, n_head, n_inner, n_positions, layer_norm_epsilon */
    READS_HEAD_DIM = 1 << 2,
    READS_ATTENTION_BIAS = 1 << 3,
    READS_MLP_BIAS = 1 << 4,
    READS_SOFTCAP = 1 << 5     /* attn_logit_softcapping, final_logit_softcapping, query_pre_attn_scalar */
};

struct model_family {
    const char *model_type;         /* config.json's model_type */
    const char *hf_class;           /* transformers' causal-LM class */
    unsigned arch;                  /* PF_ARCH_* switches */
    int norm;                       /* PF_NORM_* */
    int tie_default;                /* tie_word_embeddings when config.json does not say */
    int64_t head_dim_default;       /* head_dim when it does not say; 0: hidden_size / heads */
    int attention_bias, mlp_bias;   /* biases when it does not say (or cannot: GPT-2) */
    const char *activation_key;     /* the key naming the MLP's activation */
    const char *activation_default; /* its value when absent or null */
    unsigned reads;                 /* READS_* */
    const char *extras;             /* what else it builds, for the README */
};

extern const struct model_family model_families[];
extern const size_t model_family_count;

/* The row for model_type, or NULL. */
const struct model_family *model_family_find(const char *model_type);
/* "llama, mistral, ..." in table order. */
const char *model_family_names(void);

/* An activation by its transformers name (ACT2FN's key). */
struct model_activation {
    const char *name;
    int activation; /* PF_ACT_* */
};
extern const struct model_activation model_activations[];
extern const size_t model_activation_count;
/* PF_ACT_* of name, or -1. */
int model_activation_find(const char *name);
/* "silu, swish, ..." */
const char *model_activation_names(void);

/* A config.json key whose value would change the architecture in a way
 * peakfit does not build: refused, never ignored. */
enum refusal_kind {
    REFUSE_IF_SET,    /* refused unless absent, null, false, 0 or empty */
    REFUSE_UNLESS_ONE /* refused unless absent, null or 1 */
};
struct refused_field {
    const char *key;
    enum refusal_kind kind;
    const char *why;
};
extern const struct refused_field refused_fields[];
extern const size_t refused_field_count;

/* The README's family table, in Markdown, from the table. */
void model_families_markdown(FILE *out);

/* Puts family's defaults and switches into c (after model_config_defaults). */
void model_family_apply(const struct model_family *family, pf_model_config *c);
#endif
