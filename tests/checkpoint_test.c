/* Gradient checkpointing computes the same thing: on the same weights and
 * tokens, full+ckpt gives full's loss and gradient norm, lora+ckpt gives
 * lora's; and LoRA's trainable parameters are exactly the adapters. */
#include <math.h>
#include "shim/peakfit_torch.h"
#include "models/model_spec.h"
#include "tests/check.h"

static void loss_and_norm(pf_technique t, double *loss, double *norm)
{
    pf_model_config config;
    char err[256];
    model_spec_resolve("tiny", &config, err, sizeof err);
    pf_train_options options = {.technique = t, .lora_rank = 8, .lora_targets = PF_LORA_Q | PF_LORA_V, .learning_rate = 1e-4};
    pf_model *m = NULL;
    CHECK(pf_model_new(&config, &options, 7, "cpu", &m) == PF_OK, "build: %s", pf_last_error());
    if (!m)
        return;
    CHECK(pf_model_loss_and_grad_norm(m, 2, 32, 11, loss, norm) == PF_OK, "backward: %s", pf_last_error());
    pf_model_free(m);
}

static void same_as(pf_technique plain, pf_technique checkpointed, const char *what)
{
    double l1, n1, l2, n2;
    loss_and_norm(plain, &l1, &n1);
    loss_and_norm(checkpointed, &l2, &n2);
    CHECK(fabs(l1 - l2) <= 1e-6 * fabs(l1), "%s loss %.9g vs %.9g", what, l1, l2);
    CHECK(n1 > 0 && fabs(n1 - n2) <= 1e-5 * n1, "%s grad norm %.9g vs %.9g", what, n1, n2);
}

int main(void)
{
    CHECK(pf_init(1) == PF_OK, "init");
    same_as(PF_TECH_FULL, PF_TECH_FULL_CKPT, "full vs full+ckpt");
    same_as(PF_TECH_LORA, PF_TECH_LORA_CKPT, "lora vs lora+ckpt");
    /* The adapters start at zero, so LoRA's loss is the base model's. */
    double lf, nf, ll, nl;
    loss_and_norm(PF_TECH_FULL, &lf, &nf);
    loss_and_norm(PF_TECH_LORA, &ll, &nl);
    CHECK(fabs(lf - ll) <= 1e-6 * fabs(lf), "lora at init = base: %.9g vs %.9g", lf, ll);
    CHECK(nl < nf, "adapter gradients are a part of all gradients: %g vs %g", nl, nf);
    CHECK_DONE();
}
