/* model_config.c: the config field table and the shape rules. */
#include <stdio.h>
#include <stddef.h>
#include "models/model_config.h"

#define FIELD(key, type, member, min, max, required, fallback) \
    {key, type, offsetof(pf_model_config, member), min, max, required, fallback}

/* Hugging Face LlamaConfig's names; the fallbacks are its defaults. */
const struct config_field model_config_fields[] = {
    FIELD("hidden_size", CONFIG_INT, hidden_size, 1, CONFIG_HIDDEN_MAX, 1, 0),
    FIELD("num_hidden_layers", CONFIG_INT, num_layers, 1, CONFIG_LAYERS_MAX, 1, 0),
    FIELD("num_attention_heads", CONFIG_INT, num_heads, 1, CONFIG_HEADS_MAX, 1, 0),
    FIELD("num_key_value_heads", CONFIG_INT, num_kv_heads, 1, CONFIG_HEADS_MAX, 0, 0),
    FIELD("intermediate_size", CONFIG_INT, intermediate_size, 1, CONFIG_INTERMEDIATE_MAX, 1, 0),
    FIELD("vocab_size", CONFIG_INT, vocab_size, 1, CONFIG_VOCAB_MAX, 1, 0),
    FIELD("tie_word_embeddings", CONFIG_BOOL, tie_embeddings, 0, 1, 0, 0),
    FIELD("rope_theta", CONFIG_REAL, rope_theta, 1, 1e12, 0, 10000.0),
    FIELD("rms_norm_eps", CONFIG_REAL, rms_norm_eps, 0, 1, 0, 1e-6),
};
const size_t model_config_field_count = sizeof model_config_fields / sizeof model_config_fields[0];

void model_config_defaults(pf_model_config *c)
{
    for (size_t i = 0; i < model_config_field_count; i++) {
        const struct config_field *f = &model_config_fields[i];
        char *at = (char *)c + f->offset;
        if (f->type == CONFIG_INT) *(int64_t *)at = (int64_t)f->fallback;
        else if (f->type == CONFIG_REAL) *(double *)at = f->fallback;
        else *(int *)at = (int)f->fallback;
    }
}

int model_config_shape_problem(const pf_model_config *c, char *why, size_t whylen)
{
    if (c->hidden_size <= 0 || c->num_layers <= 0 || c->num_heads <= 0 || c->num_kv_heads <= 0 ||
        c->intermediate_size <= 0 || c->vocab_size <= 0)
        snprintf(why, whylen, "every size in the model config must be positive");
    else if (c->hidden_size % c->num_heads != 0)
        snprintf(why, whylen, "hidden_size %lld is not a multiple of num_attention_heads %lld",
                 (long long)c->hidden_size, (long long)c->num_heads);
    else if (c->num_heads % c->num_kv_heads != 0)
        snprintf(why, whylen, "num_attention_heads %lld is not a multiple of num_key_value_heads %lld",
                 (long long)c->num_heads, (long long)c->num_kv_heads);
    else if ((c->hidden_size / c->num_heads) % 2 != 0)
        snprintf(why, whylen, "head dimension %lld must be even for rotary embeddings",
                 (long long)(c->hidden_size / c->num_heads));
    else
        return 0;
    return -1;
}
