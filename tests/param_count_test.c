/* The config arithmetic (models/param_count.h) agrees exactly with the
 * tensors the shim builds, for every technique: params, trainable params,
 * weight bytes, and after one step grad and AdamW state bytes; on the tiny
 * preset and on an untied config whose kv heads differ, with adapters on
 * every projection. Also the published counts and the memory refusal. */
#include <string.h>
#include "models/param_count.h"
#include "tests/check.h"

static void agrees_with_shim(const pf_model_config *c, pf_technique t, unsigned targets, const char *what)
{
    pf_train_options o = {.technique = t, .lora_rank = 4, .lora_targets = targets, .learning_rate = 1e-4};
    pf_model *m = NULL;
    pf_model_stats built, counted = model_footprint(c, &o);
    double loss;
    CHECK(pf_model_new(c, &o, 1, "cpu", &m) == PF_OK, "%s %d: build: %s", what, (int)t, pf_last_error());
    if (!m)
        return;
    CHECK(pf_model_step(m, 1, 8, &loss) == PF_OK, "%s %d: step: %s", what, (int)t, pf_last_error());
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

int main(void)
{
    const pf_model_config tiny = {256, 4, 4, 2, 768, 8192, 1, 10000.0, 1e-5};
    const pf_model_config smollm2 = {576, 30, 9, 3, 1536, 49152, 1, 100000.0, 1e-5};
    const pf_model_config untied = {96, 2, 6, 2, 160, 300, 0, 10000.0, 1e-5};
    const pf_model_config llama2_70b = {8192, 80, 64, 8, 28672, 32000, 0, 10000.0, 1e-5};
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
        agrees_with_shim(&tiny, (pf_technique)t, PF_LORA_Q | PF_LORA_V, "tiny");
        agrees_with_shim(&untied, (pf_technique)t, every, "untied");
    }
    CHECK_DONE();
}
