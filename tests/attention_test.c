/* sdpa and eager attention compute the same thing (same loss and gradient
 * norm on the same weights and tokens, at seq_lens below, at and past the
 * sdpa path's block of 128 queries), but sdpa keeps no [b, h, s, s]
 * probabilities for backward: its allocator-level peak at a long sequence
 * is below eager's by most of their size. amp-bf16 trains close to fp32,
 * with a peak between pure bf16's and fp32's. */
#include <math.h>
#include "shim/peakfit_torch.h"
#include "models/model_spec.h"
#include "tests/check.h"

static pf_model *build(pf_technique t, pf_attention a)
{
    pf_model_config config;
    char err[256];
    model_spec_resolve("tiny", &config, err, sizeof err);
    pf_train_options options = {.technique = t, .learning_rate = 1e-4, .attention = a};
    pf_model *m = NULL;
    CHECK(pf_model_new(&config, &options, 7, "cpu", &m) == PF_OK, "build: %s", pf_last_error());
    return m;
}

static void loss_and_norm(pf_technique t, pf_attention a, int s, double *loss, double *norm)
{
    pf_model *m = build(t, a);
    *loss = *norm = NAN;
    if (!m)
        return;
    CHECK(pf_model_loss_and_grad_norm(m, 2, s, 11, loss, norm) == PF_OK, "backward: %s", pf_last_error());
    pf_model_free(m);
}

static void same_results(int s)
{
    double le, ne, ls, ns;
    loss_and_norm(PF_TECH_FULL, PF_ATTN_EAGER, s, &le, &ne);
    loss_and_norm(PF_TECH_FULL, PF_ATTN_SDPA, s, &ls, &ns);
    CHECK(fabs(le - ls) <= 1e-5 * fabs(le), "s=%d: eager loss %.9g vs sdpa %.9g", s, le, ls);
    CHECK(ne > 0 && fabs(ne - ns) <= 1e-4 * ne, "s=%d: eager grad norm %.9g vs sdpa %.9g", s, ne, ns);
}

/* Allocator-level peak of one training step above what was live before the
 * model was built, in bytes. */
static double step_peak(pf_technique t, pf_attention a, int b, int s, double *loss)
{
    int64_t before = pf_tensor_bytes_live();
    pf_tensor_bytes_reset_peak();
    pf_model *m = build(t, a);
    if (!m)
        return NAN;
    CHECK(pf_model_step(m, b, s, loss) == PF_OK, "step: %s", pf_last_error());
    double peak = (double)(pf_tensor_bytes_peak() - before);
    pf_model_free(m);
    return peak;
}

int main(void)
{
    CHECK(pf_init(1) == PF_OK, "init");
    same_results(17);
    same_results(128);
    same_results(200);
    same_results(300);

    /* tiny: 4 layers of 4 heads; fp32 probabilities at b=2, s=512 are
     * 2 * 4 * 512 * 512 * 4 bytes = 8 MiB a layer, 32 MiB in all. */
    double loss, probs = 4.0 * 2 * 4 * 512 * 512 * 4;
    double eager = step_peak(PF_TECH_FULL, PF_ATTN_EAGER, 2, 512, &loss);
    double sdpa = step_peak(PF_TECH_FULL, PF_ATTN_SDPA, 2, 512, &loss);
    CHECK(eager - sdpa >= 0.75 * probs, "sdpa peak %.1f MiB is not below eager's %.1f MiB by most of the "
          "probabilities' %.1f MiB", sdpa / 1048576, eager / 1048576, probs / 1048576);

    double fp32_loss, amp_loss, bf16_loss;
    double fp32 = step_peak(PF_TECH_FULL, PF_ATTN_SDPA, 4, 256, &fp32_loss);
    double amp = step_peak(PF_TECH_AMP_BF16, PF_ATTN_SDPA, 4, 256, &amp_loss);
    double bf16 = step_peak(PF_TECH_BF16, PF_ATTN_SDPA, 4, 256, &bf16_loss);
    CHECK(isfinite(amp_loss) && fabs(amp_loss - fp32_loss) <= 0.02 * fp32_loss,
          "amp-bf16 loss %.6g is not within 2%% of fp32's %.6g", amp_loss, fp32_loss);
    CHECK(bf16 < amp && amp < fp32, "peaks not ordered bf16 < amp-bf16 < fp32: %.1f, %.1f, %.1f MiB",
          bf16 / 1048576, amp / 1048576, fp32 / 1048576);
    CHECK_DONE();
}
