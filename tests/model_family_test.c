/* The family table is the only list of families: docs/models.md's family
 * table is exactly what it prints; each family's activation default is an
 * activation peakfit runs; the config reader gives each family its
 * switches and defaults (Gemma's tied head, head_dim 256 and GeGLU;
 * GPT-2's names, n_inner null as 4 * n_embd, and biases). */
#include <stdlib.h>
#include <string.h>
#include "models/config_json.h"
#include "models/model_config.h"
#include "models/model_family.h"
#include "tests/check.h"
#include "tests/doc_table.h"

static void check_doc(void)
{
    check_doc_table("docs/models.md", "| `model_type` | transformers class | norm | activation (key: default) "
                       "| tied | head_dim | also |\n", model_families_markdown, "family");
}

/* The field table is the option engine's rows: each default is a value its
 * own row reads, and the reader hands a JSON value to that row's setter only
 * when its JSON type is the row's. */
static void check_field_rows(void)
{
    for (size_t i = 0; i < model_config_field_count; i++) {
        const struct opt_row *r = &model_config_fields[i].row;
        pf_model_config c = {0};
        char why[256] = "";
        CHECK(r->type == OPT_INT64 || r->type == OPT_DOUBLE || r->type == OPT_BOOL, "%s: a JSON type", r->name);
        CHECK(!r->def || opt_set(r, r->name, r->def, &c, why, sizeof why) == 0, "default of %s: %s", r->name, why);
        CHECK(!r->def || !(r->flags & OPT_REQUIRED), "%s: required, yet a default", r->name);
    }
    pf_model_config d = {0};
    model_config_defaults(&d, READS_HF_NAMES | READS_SOFTCAP);
    CHECK(d.rope_theta == 10000 && d.rms_norm_eps == 1e-6 && d.attn_softcap == 50 && d.query_scale_base == 256 &&
              !d.tie_embeddings && d.hidden_size == 0,
          "defaults read from the rows' texts");
}

static pf_model_config parse(const char *json)
{
    struct config_json parsed;
    char err[512] = "";
    CHECK(config_json_parse("c", json, strlen(json), &parsed, err, sizeof err) == 0, "%s: %s", json, err);
    return parsed.config;
}

int main(void)
{
    check_doc();
    check_field_rows();
    for (size_t i = 0; i < model_family_count; i++)
        CHECK(model_activation_find(model_families[i].activation_default) >= 0, "%s: activation %s",
              model_families[i].model_type, model_families[i].activation_default);
    CHECK(model_family_find("llama") == &model_families[0] && !model_family_find("bert"), "find");

    pf_model_config g = parse("{\"model_type\": \"gemma\", \"hidden_size\": 64, \"intermediate_size\": 96, "
                              "\"num_attention_heads\": 4, \"num_hidden_layers\": 2, \"vocab_size\": 128, "
                              "\"hidden_act\": \"relu\"}");
    CHECK(g.tie_embeddings && g.head_dim == 256 && g.activation == PF_ACT_GELU_TANH && g.norm == PF_NORM_RMS_OFFSET &&
          (g.arch & PF_ARCH_EMBED_SCALE) && g.num_kv_heads == 4, "gemma defaults");
    pf_model_config q = parse("{\"model_type\": \"qwen2\", \"hidden_size\": 64, \"intermediate_size\": 96, "
                              "\"num_attention_heads\": 4, \"num_hidden_layers\": 2, \"vocab_size\": 128, "
                              "\"attention_bias\": true, \"mlp_bias\": true}");
    CHECK(!q.attention_bias && !q.mlp_bias && (q.arch & PF_ARCH_QKV_BIAS) && !q.tie_embeddings,
          "qwen2: q, k, v biases only; attention_bias and mlp_bias are not its keys");
    pf_model_config s = parse("{\"model_type\": \"gemma2\", \"hidden_size\": 64, \"intermediate_size\": 96, "
                              "\"num_attention_heads\": 4, \"num_hidden_layers\": 2, \"vocab_size\": 128, "
                              "\"final_logit_softcapping\": null}");
    CHECK(s.attn_softcap == 50 && s.final_softcap == 0 && s.query_scale_base == 256, "gemma2 soft-capping");
    pf_model_config p = parse("{\"model_type\": \"gpt2\", \"n_embd\": 64, \"n_head\": 4, \"n_layer\": 2, "
                              "\"n_inner\": null, \"vocab_size\": 128, \"hidden_size\": 5}");
    CHECK(p.hidden_size == 64 && p.intermediate_size == 256 && p.num_kv_heads == 4 && p.max_positions == 1024 &&
          p.attention_bias && p.mlp_bias && p.tie_embeddings && p.activation == PF_ACT_GELU_NEW &&
          p.norm == PF_NORM_LAYER && p.rms_norm_eps == 1e-5, "gpt2 names and defaults");
    pf_model_config l = parse("{\"hidden_size\": 64, \"intermediate_size\": 96, \"num_attention_heads\": 4, "
                              "\"num_hidden_layers\": 2, \"vocab_size\": 128, \"head_dim\": null, "
                              "\"sliding_window\": 16, \"rope_scaling\": {\"rope_type\": \"llama3\"}}");
    CHECK(l.arch == 0 && l.head_dim == 0 && l.activation == PF_ACT_SILU && !l.tie_embeddings,
          "no model_type: llama; sliding_window and rope_scaling accepted");
    CHECK_DONE();
}
