/* The config arithmetic (models/param_count.h) agrees exactly with the
 * tensors the shim builds, for every technique: params, trainable params,
 * weight bytes, and after one step grad and AdamW state bytes; on the tiny
 * preset and on an untied config whose kv heads differ, with adapters on
 * every projection; and on a scaled-down config of every family (read by
 * the config reader) with both attention implementations, a step's loss
 * finite. Also the published counts and the memory refusal. */
#include <math.h>
#include <string.h>
#include "shim/peakfit_torch.h"
#include "models/config_json.h"
#include "models/model_family.h"
#include "models/param_count.h"
#include "tests/check.h"

static void agrees_with_shim(const pf_model_config *c, pf_technique t, unsigned targets, pf_attention attention,
                             const char *what)
{
    pf_train_options o = {.technique = t, .lora_rank = 4, .lora_targets = targets, .learning_rate = 1e-4,
                          .attention = attention};
    pf_model *m = NULL;
    pf_model_stats built, counted = model_footprint(c, &o);
    double loss;
    CHECK(pf_model_new(c, &o, 1, "cpu", &m) == PF_OK, "%s %d: build: %s", what, (int)t, pf_last_error());
    if (!m)
        return;
    CHECK(pf_model_step(m, 1, 8, &loss) == PF_OK, "%s %d: step: %s", what, (int)t, pf_last_error());
    CHECK(!pf_technique_info_of(t)->training || isfinite(loss), "%s %d: loss %g", what, (int)t, loss);
    CHECK(pf_model_stats_get(m, &built) == PF_OK, "stats");
    CHECK(built.params == counted.params, "%s %d: params %lld built, %lld counted", what, (int)t,
          (long long)built.params, (long long)counted.params);
    CHECK(built.trainable_params == counted.trainable_params, "%s %d: trainable %lld built, %lld counted", what,
          (int)t, (long long)built.trainable_params, (long long)counted.trainable_params);
    CHECK(built.weight_bytes == counted.weight_bytes, "%s %d: weight bytes %lld built, %lld counted", what,
          (int)t, (long long)built.weight_bytes, (long long)counted.weight_bytes);
    CHECK(built.grad_bytes == counted.grad_bytes, "%s %d: grad bytes %lld built, %lld counted", what, (int)t,
          (long long)built.grad_bytes, (long long)counted.grad_bytes);
    CHECK(built.optimizer_bytes == counted.optimizer_bytes, "%s %d: optimizer bytes %lld built, %lld counted",
          what, (int)t, (long long)built.optimizer_bytes, (long long)counted.optimizer_bytes);
    pf_model_free(m);
}

/* Scaled-down configs of every family, with its switches turned on:
 * biases, head_dim apart from hidden_size / heads, grouped kv heads. */
static const char *const tiny_families[][2] = {
    {"llama", "{\"model_type\": \"llama\", \"hidden_size\": 64, \"intermediate_size\": 96, "
              "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
              "\"vocab_size\": 128, \"attention_bias\": true, \"mlp_bias\": true}"},
    {"mistral", "{\"model_type\": \"mistral\", \"hidden_size\": 64, \"intermediate_size\": 96, "
                "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
                "\"vocab_size\": 128, \"head_dim\": 32, \"sliding_window\": 4}"},
    {"qwen2", "{\"model_type\": \"qwen2\", \"hidden_size\": 64, \"intermediate_size\": 96, "
              "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
              "\"vocab_size\": 128, \"tie_word_embeddings\": true}"},
    {"qwen3", "{\"model_type\": \"qwen3\", \"hidden_size\": 64, \"intermediate_size\": 96, "
              "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
              "\"vocab_size\": 128, \"head_dim\": 24}"},
    {"gemma", "{\"model_type\": \"gemma\", \"hidden_size\": 64, \"intermediate_size\": 96, "
              "\"num_attention_heads\": 4, \"num_key_value_heads\": 1, \"num_hidden_layers\": 2, "
              "\"vocab_size\": 128, \"head_dim\": 32, \"hidden_act\": \"gelu\"}"},
    {"gemma2", "{\"model_type\": \"gemma2\", \"hidden_size\": 64, \"intermediate_size\": 96, "
               "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
               "\"vocab_size\": 128, \"head_dim\": 16, \"query_pre_attn_scalar\": 24}"},
    {"phi3", "{\"model_type\": \"phi3\", \"hidden_size\": 64, \"intermediate_size\": 96, "
             "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
             "\"vocab_size\": 128}"},
    {"gpt2", "{\"model_type\": \"gpt2\", \"n_embd\": 64, \"n_head\": 4, \"n_layer\": 2, \"n_inner\": null, "
             "\"n_positions\": 32, \"vocab_size\": 128}"},
};

/* Every family's tiny config, built for every technique and both
 * attention implementations, agrees with the arithmetic; a step's loss is
 * finite. */
static void families_agree_with_shim(void)
{
    const unsigned every = PF_LORA_Q | PF_LORA_K | PF_LORA_V | PF_LORA_O | PF_LORA_GATE | PF_LORA_UP | PF_LORA_DOWN;
    for (size_t i = 0; i < sizeof tiny_families / sizeof tiny_families[0]; i++) {
        struct config_json parsed;
        char err[512];
        const char *json = tiny_families[i][1];
        CHECK(config_json_parse(tiny_families[i][0], json, strlen(json), &parsed, err, sizeof err) == 0,
              "%s: %s", tiny_families[i][0], err);
        CHECK(strcmp(parsed.family->model_type, tiny_families[i][0]) == 0, "%s: family %s", tiny_families[i][0],
              parsed.family->model_type);
        for (int t = PF_TECH_LOAD; t < PF_TECH_COUNT; t++)
            for (int a = 0; a < PF_ATTN_COUNT; a++)
                agrees_with_shim(&parsed.config, (pf_technique)t, pf_technique_info_of(t)->lora ? every : 0,
                                 (pf_attention)a, tiny_families[i][0]);
    }
}

int main(void)
{
    const pf_model_config tiny = {.hidden_size = 256, .num_layers = 4, .num_heads = 4, .num_kv_heads = 2,
         .intermediate_size = 768, .vocab_size = 8192, .tie_embeddings = 1, .rope_theta = 10000.0, .rms_norm_eps = 1e-5};
    const pf_model_config smollm2 = {.hidden_size = 576, .num_layers = 30, .num_heads = 9, .num_kv_heads = 3,
         .intermediate_size = 1536, .vocab_size = 49152, .tie_embeddings = 1, .rope_theta = 100000.0, .rms_norm_eps = 1e-5};
    const pf_model_config untied = {.hidden_size = 96, .num_layers = 2, .num_heads = 6, .num_kv_heads = 2,
         .intermediate_size = 160, .vocab_size = 300, .tie_embeddings = 0, .rope_theta = 10000.0, .rms_norm_eps = 1e-5};
    const pf_model_config llama2_70b = {.hidden_size = 8192, .num_layers = 80, .num_heads = 64, .num_kv_heads = 8,
         .intermediate_size = 28672, .vocab_size = 32000, .tie_embeddings = 0, .rope_theta = 10000.0, .rms_norm_eps = 1e-5};
    CHECK(model_param_count(&tiny) == 5245184, "tiny: %lld", (long long)model_param_count(&tiny));
    CHECK(model_param_count(&smollm2) == 134515008, "smollm2: %lld", (long long)model_param_count(&smollm2));
    CHECK(model_param_count(&llama2_70b) == 68976648192LL, "70B: %lld", (long long)model_param_count(&llama2_70b));
    CHECK(model_lora_param_count(&smollm2, 8, PF_LORA_Q | PF_LORA_V) == 460800, "smollm2 LoRA q,v r=8");

    char why[256] = "";
    CHECK(model_weights_fit(&llama2_70b, 64LL << 30, why, sizeof why) == -1 &&
          strcmp(why, "6.9e+10 parameters need 257.0 GiB for their fp32 weights alone, "
                      "more than this machine's 64.0 GiB of memory") == 0, "70B in 64 GiB: %s", why);
    CHECK(model_weights_fit(&llama2_70b, 300LL << 30, why, sizeof why) == 0, "70B in 300 GiB");
    CHECK(machine_memory_bytes() > 0, "this machine's memory");

    CHECK(pf_init(1) == PF_OK, "init");
    const unsigned every = PF_LORA_Q | PF_LORA_K | PF_LORA_V | PF_LORA_O | PF_LORA_GATE | PF_LORA_UP | PF_LORA_DOWN;
    for (int t = PF_TECH_LOAD; t < PF_TECH_COUNT; t++) {
        agrees_with_shim(&tiny, (pf_technique)t, PF_LORA_Q | PF_LORA_V, PF_ATTN_SDPA, "tiny");
        agrees_with_shim(&untied, (pf_technique)t, every, PF_ATTN_SDPA, "untied");
    }
    families_agree_with_shim();
    CHECK_DONE();
}
