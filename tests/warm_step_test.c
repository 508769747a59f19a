/* One warm step reaches the peak of two plain steps: with AdamW's state
 * made before the first step (pf_model_warm_optimizer), step 1 is already a
 * steady-state step. Checked, to the byte of the allocator-level peak, for
 * every technique (PF_TECHNIQUES) under both attention implementations.
 * Also: one plain step under-reports (the state is the difference), warm
 * state does not change the first step's loss, and warming twice is a no-op. */
#include <math.h>
#include "shim/peakfit_torch.h"
#include "models/model_spec.h"
#include "tests/check.h"

enum { B = 2, S = 32 };

static pf_model *build(pf_technique t, pf_attention a)
{
    pf_model_config config;
    char err[256];
    model_spec_resolve("tiny", &config, err, sizeof err);
    pf_train_options options = {.technique = t, .lora_rank = 8, .lora_targets = PF_LORA_Q | PF_LORA_V,
                                .learning_rate = 1e-4, .attention = a};
    pf_model *m = NULL;
    CHECK(pf_model_new(&config, &options, 7, "cpu", &m) == PF_OK, "build: %s", pf_last_error());
    return m;
}

/* Allocator-level peak above what was live before the model was built,
 * over `steps` steps, warmed first or not; the last loss in *loss. */
static int64_t peak_of(pf_technique t, pf_attention a, int warm, int steps, double *loss)
{
    int64_t before = pf_tensor_bytes_live();
    pf_tensor_bytes_reset_peak();
    pf_model *m = build(t, a);
    if (!m)
        return -1;
    if (warm)
        CHECK(pf_model_warm_optimizer(m) == PF_OK, "warm: %s", pf_last_error());
    for (int i = 0; i < steps; i++)
        CHECK(pf_model_step(m, B, S, loss) == PF_OK, "step: %s", pf_last_error());
    int64_t peak = pf_tensor_bytes_peak() - before;
    pf_model_free(m);
    return peak;
}

static void same_peak(pf_technique t, pf_attention a)
{
    const char *name = pf_technique_info_of(t)->name, *attn = a == PF_ATTN_SDPA ? "sdpa" : "eager";
    double loss;
    int64_t plain2 = peak_of(t, a, 0, 2, &loss);
    int64_t warm1 = peak_of(t, a, 1, 1, &loss);
    CHECK(plain2 > 0 && warm1 == plain2, "%s/%s: one warm step peaks at %lld bytes, two plain steps at %lld",
          name, attn, (long long)warm1, (long long)plain2);
    if (!pf_technique_info_of(t)->training)
        return;
    int64_t plain1 = peak_of(t, a, 0, 1, &loss);
    CHECK(plain1 < plain2, "%s/%s: one plain step (%lld bytes) should under-report two (%lld)", name, attn,
          (long long)plain1, (long long)plain2);
}

/* Zero moments with step 0 are what AdamW's first step makes itself: the
 * first two steps' losses are the same warmed or not. */
static void same_losses(pf_technique t)
{
    double plain[2], warm[2];
    for (int w = 0; w < 2; w++) {
        pf_model *m = build(t, PF_ATTN_SDPA);
        if (!m)
            return;
        if (w) {
            CHECK(pf_model_warm_optimizer(m) == PF_OK, "warm: %s", pf_last_error());
            CHECK(pf_model_warm_optimizer(m) == PF_OK, "warm again: %s", pf_last_error());
        }
        pf_model_stats st;
        pf_model_stats_get(m, &st);
        if (w)
            CHECK(st.optimizer_bytes == 2 * (int64_t)sizeof(float) * st.trainable_params,
                  "%s: warm state is %lld bytes for %lld trainable parameters", pf_technique_info_of(t)->name,
                  (long long)st.optimizer_bytes, (long long)st.trainable_params);
        for (int i = 0; i < 2; i++) {
            double *out = w ? &warm[i] : &plain[i];
            CHECK(pf_model_step(m, B, S, out) == PF_OK, "step: %s", pf_last_error());
        }
        pf_model_free(m);
    }
    /* The token ids are drawn from the same generator state in both runs. */
    CHECK(fabs(plain[1] - warm[1]) <= 1e-6 * fabs(plain[1]), "%s: second-step loss %.9g plain, %.9g warm",
          pf_technique_info_of(t)->name, plain[1], warm[1]);
}

int main(void)
{
    CHECK(pf_init(1) == PF_OK, "init");
    for (int t = 0; t < PF_TECH_COUNT; t++)
        for (int a = 0; a < PF_ATTN_COUNT; a++)
            same_peak((pf_technique)t, (pf_attention)a);
    same_losses(PF_TECH_FULL);
    same_losses(PF_TECH_LORA);
    CHECK_DONE();
}
