/* model_family.c: the family table, the activations, the refused fields. */
#include <stdio.h>
#include <string.h>
#include "models/model_family.h"
#include "util/md_table.h"
#include "util/name_list.h"

#define HF (READS_HF_NAMES | READS_HEAD_DIM)

/* Hugging Face's defaults for each family (its Config class and modeling
 * file): llama and mistral are the plain decoder; the rest add switches. */
const struct model_family model_families[] = {
    {"llama", "LlamaForCausalLM", 0, PF_NORM_RMS, 0, 0, 0, 0, "hidden_act", "silu",
     HF | READS_ATTENTION_BIAS | READS_MLP_BIAS, "the plain decoder; honours attention_bias and mlp_bias"},
    {"mistral", "MistralForCausalLM", 0, PF_NORM_RMS, 0, 0, 0, 0, "hidden_act", "silu", HF,
     "as llama, no biases"},
    {"qwen2", "Qwen2ForCausalLM", PF_ARCH_QKV_BIAS, PF_NORM_RMS, 0, 0, 0, 0, "hidden_act", "silu", HF,
     "q, k and v biases"},
    {"qwen3", "Qwen3ForCausalLM", PF_ARCH_QK_NORM, PF_NORM_RMS, 0, 128, 0, 0, "hidden_act", "silu",
     HF | READS_ATTENTION_BIAS, "an RMSNorm over each head's q and k (q_norm, k_norm); honours attention_bias"},
    {"gemma", "GemmaForCausalLM", PF_ARCH_EMBED_SCALE, PF_NORM_RMS_OFFSET, 1, 256, 0, 0, "hidden_activation",
     "gelu_pytorch_tanh", HF | READS_ATTENTION_BIAS,
     "GeGLU; embeddings times sqrt(hidden_size); honours attention_bias"},
    {"gemma2", "Gemma2ForCausalLM", PF_ARCH_EMBED_SCALE | PF_ARCH_SANDWICH_NORMS, PF_NORM_RMS_OFFSET, 1, 256, 0,
     0, "hidden_activation", "gelu_pytorch_tanh", HF | READS_ATTENTION_BIAS | READS_SOFTCAP,
     "as gemma, plus norms after attention and around the MLP; attention (eager only) and final "
     "logit soft-capping; query_pre_attn_scalar"},
    {"phi3", "Phi3ForCausalLM", PF_ARCH_FUSED_QKV | PF_ARCH_FUSED_GATE_UP, PF_NORM_RMS, 0, 0, 0, 0,
     "hidden_act", "silu", HF, "fused qkv_proj and gate_up_proj"},
    {"gpt2", "GPT2LMHeadModel", PF_ARCH_FUSED_QKV | PF_ARCH_PLAIN_MLP | PF_ARCH_LEARNED_POSITIONS |
     PF_ARCH_GPT2_LAYOUT, PF_NORM_LAYER, 1, 0, 1, 1, "activation_function", "gelu_new", READS_GPT2_NAMES,
     "learned positions (wpe, n_positions); GELU MLP c_fc, c_proj; fused c_attn; every linear "
     "biased; Conv1D weights stored [in, out]"},
};
const size_t model_family_count = sizeof model_families / sizeof model_families[0];

const struct model_activation model_activations[] = {
    {"silu", PF_ACT_SILU},       {"swish", PF_ACT_SILU},    {"gelu", PF_ACT_GELU},
    {"gelu_new", PF_ACT_GELU_NEW}, {"gelu_pytorch_tanh", PF_ACT_GELU_TANH}, {"relu", PF_ACT_RELU},
};
const size_t model_activation_count = sizeof model_activations / sizeof model_activations[0];

#define MOE "mixture-of-experts layers are not implemented"
const struct refused_field refused_fields[] = {
    {"num_local_experts", REFUSE_IF_SET, MOE},
    {"num_experts", REFUSE_IF_SET, MOE},
    {"num_experts_per_tok", REFUSE_IF_SET, MOE},
    {"n_routed_experts", REFUSE_IF_SET, MOE},
    {"moe_intermediate_size", REFUSE_IF_SET, MOE},
    {"quantization_config", REFUSE_IF_SET, "quantized weights are not implemented"},
    {"partial_rotary_factor", REFUSE_UNLESS_ONE, "rotary embeddings over part of each head are not implemented"},
    {"is_encoder_decoder", REFUSE_IF_SET, "encoder-decoder models are not implemented"},
    {"add_cross_attention", REFUSE_IF_SET, "cross-attention layers are not implemented"},
    {"scale_attn_by_inverse_layer_idx", REFUSE_IF_SET, "per-layer attention scaling is not implemented"},
    {"reorder_and_upcast_attn", REFUSE_IF_SET, "GPT-2's upcast attention is not implemented"},
};
const size_t refused_field_count = sizeof refused_fields / sizeof refused_fields[0];

const struct model_family *model_family_find(const char *model_type)
{
    for (size_t i = 0; i < model_family_count; i++)
        if (strcmp(model_families[i].model_type, model_type) == 0)
            return &model_families[i];
    return NULL;
}

static const char *family_name_at(int i) { return model_families[i].model_type; }
static const char *activation_name_at(int i) { return model_activations[i].name; }

const char *model_family_names(void)
{
    static char names[256];
    return names_joined(names, sizeof names, family_name_at, (int)model_family_count);
}

int model_activation_find(const char *name)
{
    for (size_t i = 0; i < model_activation_count; i++)
        if (strcmp(model_activations[i].name, name) == 0)
            return model_activations[i].activation;
    return -1;
}

const char *model_activation_names(void)
{
    static char names[256];
    return names_joined(names, sizeof names, activation_name_at, (int)model_activation_count);
}

void model_family_apply(const struct model_family *f, pf_model_config *c)
{
    c->arch = f->arch;
    c->norm = f->norm;
    c->tie_embeddings = f->tie_default;
    c->head_dim = f->head_dim_default;
    c->attention_bias = f->attention_bias;
    c->mlp_bias = f->mlp_bias;
    c->activation = model_activation_find(f->activation_default);
}

static const char *norm_name(int norm)
{
    return norm == PF_NORM_LAYER ? "LayerNorm" : norm == PF_NORM_RMS_OFFSET ? "RMSNorm x (1 + w)" : "RMSNorm";
}

/* One family's row, each cell through md_table_cell: a `|` in a family's
 * text (its extras) would split the row. */
static void family_row(FILE *out, const struct model_family *f)
{
    char type[128], class_name[192], activation[192], head_dim[32];
    snprintf(type, sizeof type, "`%s`", f->model_type);
    snprintf(class_name, sizeof class_name, "`%s`", f->hf_class);
    snprintf(activation, sizeof activation, "`%s`: `%s`", f->activation_key, f->activation_default);
    if (!(f->reads & READS_HEAD_DIM))
        snprintf(head_dim, sizeof head_dim, "n_embd / n_head");
    else if (f->head_dim_default)
        snprintf(head_dim, sizeof head_dim, "%lld", (long long)f->head_dim_default);
    else
        snprintf(head_dim, sizeof head_dim, "hidden / heads");
    const char *cells[] = {type,     class_name, norm_name(f->norm), activation, f->tie_default ? "yes" : "no",
                           head_dim, f->extras};
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
        fputs("| ", out);
        md_table_cell(out, cells[i]);
        fputc(' ', out);
    }
    fputs("|\n", out);
}

void model_families_markdown(FILE *out)
{
    fputs("| `model_type` | transformers class | norm | activation (key: default) | tied | head_dim | also |\n"
          "|---|---|---|---|---|---|---|\n", out);
    for (size_t i = 0; i < model_family_count; i++)
        family_row(out, &model_families[i]);
}
