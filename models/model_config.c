/* model_config.c: the config field table and the shape rules. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include "models/model_config.h"
#include "models/model_family.h"

#define FIELD(key, type_, member, min_, max_, required, def_, null_zero, reads)                                \
    {{.name = key, .type = type_, .off = offsetof(pf_model_config, member), .min = min_, .max = max_,            \
      .flags = (required) ? OPT_REQUIRED : 0, .def = def_, .help = "config.json field"},                       \
     null_zero, reads}
#define INT OPT_INT64
#define REAL OPT_DOUBLE
#define BOOL OPT_BOOL
#define HF READS_HF_NAMES
#define GPT2 READS_GPT2_NAMES
#define ALL (READS_HF_NAMES | READS_GPT2_NAMES)

/* Hugging Face's names (LlamaConfig's, GPT2Config's); the defaults are
 * theirs. num_key_value_heads' and n_inner's 0 (no default) mean "as many
 * as num_attention_heads" and "4 * n_embd". */
const struct config_field model_config_fields[] = {
    FIELD("hidden_size", INT, hidden_size, 1, CONFIG_HIDDEN_MAX, 1, NULL, 0, HF),
    FIELD("n_embd", INT, hidden_size, 1, CONFIG_HIDDEN_MAX, 1, NULL, 0, GPT2),
    FIELD("num_hidden_layers", INT, num_layers, 1, CONFIG_LAYERS_MAX, 1, NULL, 0, HF),
    FIELD("n_layer", INT, num_layers, 1, CONFIG_LAYERS_MAX, 1, NULL, 0, GPT2),
    FIELD("num_attention_heads", INT, num_heads, 1, CONFIG_HEADS_MAX, 1, NULL, 0, HF),
    FIELD("n_head", INT, num_heads, 1, CONFIG_HEADS_MAX, 1, NULL, 0, GPT2),
    FIELD("num_key_value_heads", INT, num_kv_heads, 1, CONFIG_HEADS_MAX, 0, NULL, 0, HF),
    FIELD("intermediate_size", INT, intermediate_size, 1, CONFIG_INTERMEDIATE_MAX, 1, NULL, 0, HF),
    FIELD("n_inner", INT, intermediate_size, 1, CONFIG_INTERMEDIATE_MAX, 0, NULL, 1, GPT2),
    FIELD("vocab_size", INT, vocab_size, 1, CONFIG_VOCAB_MAX, 1, NULL, 0, ALL),
    FIELD("n_positions", INT, max_positions, 1, CONFIG_POSITIONS_MAX, 0, "1024", 0, GPT2),
    FIELD("tie_word_embeddings", BOOL, tie_embeddings, 0, 1, 0, "false", 0, ALL),
    FIELD("rope_theta", REAL, rope_theta, 1, 1e12, 0, "10000", 0, HF),
    FIELD("rms_norm_eps", REAL, rms_norm_eps, 0, 1, 0, "1e-6", 0, HF),
    FIELD("layer_norm_epsilon", REAL, rms_norm_eps, 0, 1, 0, "1e-5", 0, GPT2),
    FIELD("head_dim", INT, head_dim, 1, CONFIG_HEAD_DIM_MAX, 0, NULL, 0, READS_HEAD_DIM),
    FIELD("attention_bias", BOOL, attention_bias, 0, 1, 0, "false", 0, READS_ATTENTION_BIAS),
    FIELD("mlp_bias", BOOL, mlp_bias, 0, 1, 0, "false", 0, READS_MLP_BIAS),
    FIELD("attn_logit_softcapping", REAL, attn_softcap, 0, 1e6, 0, "50", 1, READS_SOFTCAP),
    FIELD("final_logit_softcapping", REAL, final_softcap, 0, 1e6, 0, "30", 1, READS_SOFTCAP),
    FIELD("query_pre_attn_scalar", REAL, query_scale_base, 1, 1e9, 0, "256", 0, READS_SOFTCAP),
};
const size_t model_config_field_count = sizeof model_config_fields / sizeof model_config_fields[0];

void model_config_defaults(pf_model_config *c, unsigned reads)
{
    char why[256];
    for (size_t i = 0; i < model_config_field_count; i++) {
        const struct opt_row *r = &model_config_fields[i].row;
        if (!(model_config_fields[i].reads & reads))
            continue;
        if (!r->def)
            memset((char *)c + r->off, 0, r->type == OPT_BOOL ? sizeof(int) : sizeof(int64_t));
        else
            opt_set(r, r->name, r->def, c, why, sizeof why); /* model_family_test: each default is read */
    }
}

int model_config_shape_problem(const pf_model_config *c, char *why, size_t whylen)
{
    int64_t d = pf_head_dim(c);
    if (c->hidden_size <= 0 || c->num_layers <= 0 || c->num_heads <= 0 || c->num_kv_heads <= 0 ||
        c->intermediate_size <= 0 || c->vocab_size <= 0 || c->head_dim < 0)
        snprintf(why, whylen, "every size in the model config must be positive");
    else if (c->head_dim == 0 && c->hidden_size % c->num_heads != 0)
        snprintf(why, whylen, "hidden_size %lld is not a multiple of num_attention_heads %lld",
                 (long long)c->hidden_size, (long long)c->num_heads);
    else if (c->num_heads % c->num_kv_heads != 0)
        snprintf(why, whylen, "num_attention_heads %lld is not a multiple of num_key_value_heads %lld",
                 (long long)c->num_heads, (long long)c->num_kv_heads);
    else if (c->num_heads * d > CONFIG_INTERMEDIATE_MAX)
        snprintf(why, whylen, "num_attention_heads %lld times head_dim %lld is more than %ld",
                 (long long)c->num_heads, (long long)d, CONFIG_INTERMEDIATE_MAX);
    else if (!(c->arch & PF_ARCH_LEARNED_POSITIONS) && d % 2 != 0)
        snprintf(why, whylen, "head dimension %lld must be even for rotary embeddings", (long long)d);
    else
        return 0;
    return -1;
}
