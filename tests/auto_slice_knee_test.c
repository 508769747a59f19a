/* A slice's knee by arithmetic (autosweep/auto_slice_knee.h), on made-up
 * numbers shaped as Mistral-7B's slices of full training (the floor 1000
 * MiB: two of its 500 MiB embedding; the gradients 1832 MiB at 1 layer,
 * 2664 at 2; backward's line 0.765 and 1.1165 MiB/token as measured), and
 * from a config: what the knee rests on, and where the arithmetic does not
 * know the step. */
#include <math.h>
#include "autosweep/auto_slice_knee.h"
#include "core/technique.h"
#include "tests/check.h"

int main(void)
{
    struct slice_knee one = {.depth = 1, .floor_mib = 1000, .grads_mib = 1832, .line_mib_per_token = 0.765,
                             .states_mib = 7328, .params = 480e6};
    struct slice_knee two = {.depth = 2, .floor_mib = 1000, .grads_mib = 2664, .line_mib_per_token = 1.1165,
                             .states_mib = 10656, .params = 698e6};
    CHECK(fabs(slice_knee_tokens(&one) - 2832 / 0.765) < 1e-9, "the knee: %g tokens", slice_knee_tokens(&one));
    /* 3702 tokens: b = 14.5 at s = 256; past it with the 1 % clearance: 15 (s = 128: 30). */
    CHECK(slice_knee_batch(&one, 256) == 15, "b at s = 256: %d", slice_knee_batch(&one, 256));
    CHECK(slice_knee_batch(&one, 128) == 30, "b at s = 128: %d", slice_knee_batch(&one, 128));
    CHECK(slice_knee_batch(&two, 256) == 13, "b at 2 layers: %d", slice_knee_batch(&two, 256));
    /* The floor below the knee, the line past it. */
    CHECK(slice_knee_peak_mib(&one, 1, 256) == 7328 + 1000, "on the floor: %g", slice_knee_peak_mib(&one, 1, 256));
    CHECK(fabs(slice_knee_peak_mib(&one, 16, 256) - (7328 + 0.765 * 4096 - 1832)) < 1e-9, "on the line: %g",
          slice_knee_peak_mib(&one, 16, 256));
    /* Depth 2's knee is nearer (13 x 256 against 15 x 256) but its tokens
     * pass 45 % more parameters: depth 1 measures the rise. */
    struct slice_knee both[2] = {one, two};
    CHECK(slice_knee_cheapest(both, 2, 256) == 0, "the cheaper depth: %d", slice_knee_cheapest(both, 2, 256));
    /* A 1-layer slice whose floor the embedding holds up far (its line
     * four times flatter): depth 2 is cheaper. */
    both[0].line_mib_per_token = 0.2;
    CHECK(slice_knee_cheapest(both, 2, 256) == 1, "depth 2 when depth 1's knee is far: %d",
          slice_knee_cheapest(both, 2, 256));
    /* No line: no batch, never the cheapest. */
    struct slice_knee flat = {.depth = 1, .floor_mib = 10};
    CHECK(slice_knee_batch(&flat, 256) == 0 && isinf(slice_knee_tokens(&flat)), "no line: no knee");

    /* From tiny's config at 1 layer (vocabulary 8192 x 256: 8 MiB, the
     * largest tensor): the floor 16 MiB, as its optimizer step measures. */
    const pf_model_config tiny1 = {.hidden_size = 256, .num_layers = 1, .num_heads = 4, .num_kv_heads = 2,
                                   .intermediate_size = 768, .vocab_size = 8192, .tie_embeddings = 1,
                                   .rope_theta = 10000.0, .rms_norm_eps = 1e-5};
    pf_train_options o = {.technique = PF_TECH_FULL, .optimizer = PF_OPT_ADAMW};
    struct slice_knee k;
    CHECK(slice_knee_of(&tiny1, &o, PF_ZERO_GRAD_NONE, PF_ATTN_SDPA, 128, &k) == 0, "tiny is known");
    CHECK(k.depth == 1 && fabs(k.floor_mib - 16) < 1e-9, "tiny's floor: %g", k.floor_mib);
    CHECK(fabs(k.states_mib - 4 * k.grads_mib) < 1e-9, "gradients a quarter of AdamW's states: %g of %g",
          k.grads_mib, k.states_mib);
    /* The line: one layer's saved values and three copies of the logits. */
    double layer = 4.0 * (4 * 256 + 2 * 256 + 2 * 128 + 4 * 768), logits = 3.0 * 4 * 8192;
    CHECK(fabs(k.line_mib_per_token - (layer + logits) / 1048576.0) < 1e-12, "tiny's line: %g", k.line_mib_per_token);
    /* Gradients kept through forward (zero_grad zeros): the line starts at the states. */
    CHECK(slice_knee_of(&tiny1, &o, PF_ZERO_GRAD_ZEROS, PF_ATTN_SDPA, 128, &k) == 0 && k.grads_mib == 0,
          "zeros: %g", k.grads_mib);
    /* Steps the arithmetic does not know. */
    o.optimizer = PF_OPT_ADAMW_FOREACH;
    CHECK(slice_knee_of(&tiny1, &o, PF_ZERO_GRAD_NONE, PF_ATTN_SDPA, 128, &k) == -1, "foreach is not known");
    o.optimizer = PF_OPT_ADAMW;
    o.technique = PF_TECH_FULL_CKPT;
    CHECK(slice_knee_of(&tiny1, &o, PF_ZERO_GRAD_NONE, PF_ATTN_SDPA, 128, &k) == -1, "checkpointing is not known");
    o.technique = PF_TECH_INFERENCE;
    CHECK(slice_knee_of(&tiny1, &o, PF_ZERO_GRAD_NONE, PF_ATTN_SDPA, 128, &k) == -1, "inference is not known");
    CHECK_DONE();
}
