/* What one decoder layer keeps for backward, per token, is what PyTorch 2
 * and transformers keep, counted tensor by tensor: the growth of the
 * forward-phase allocator peak per sample per layer equals the sum below to
 * the byte. It guards against libtorch 1.13 autograd keeping more than
 * PyTorch 2 does (its mean saves its input: an x^2 per RMSNorm) and against
 * repeating key/value heads where transformers' sdpa path does not.
 *
 * Per token, in floats, for a Llama layer (hidden h, heads n_q of size d,
 * n_kv key/value heads, MLP width i):
 *   each RMSNorm: x * rsqrt and its product with the weight (2h), rsqrt (1);
 *   sdpa: q (n_q d), k and v unrepeated (2 n_kv d), output (n_q d),
 *         logsumexp (n_q);
 *   eager: q, k and v repeated to n_q heads (3 n_q d), probabilities
 *          (n_q s), the output reshaped for o_proj (n_q d);
 *   the MLP: gate, silu(gate), up, their product (4i);
 *   the two residual sums (2h). */
#include "shim/peakfit_torch.h"
#include "tests/check.h"

enum { HIDDEN = 64, HEADS = 4, KV_HEADS = 2, HEAD_DIM = 16, MLP = 160, SEQ = 32 };

static pf_model_config config_with(int layers)
{
    pf_model_config c = {.hidden_size = HIDDEN, .num_layers = layers, .num_heads = HEADS,
                         .num_kv_heads = KV_HEADS, .intermediate_size = MLP, .vocab_size = 128,
                         .tie_embeddings = 1, .rope_theta = 10000.0, .rms_norm_eps = 1e-5};
    return c;
}

/* The forward phase's allocator peak of one training step, in bytes. */
static double forward_peak(int layers, int batch, pf_attention a)
{
    pf_model_config c = config_with(layers);
    pf_train_options options = {.technique = PF_TECH_FULL, .learning_rate = 1e-4, .attention = a};
    pf_model *m = NULL;
    pf_model_phase_peaks ph;
    double loss;
    CHECK(pf_model_new(&c, &options, 3, "cpu", &m) == PF_OK, "build: %s", pf_last_error());
    if (!m)
        return 0;
    CHECK(pf_model_step(m, batch, SEQ, &loss) == PF_OK, "step: %s", pf_last_error());
    CHECK(pf_model_phase_peaks_get(m, &ph) == PF_OK, "phase peaks: %s", pf_last_error());
    for (int i = 0; i < PF_PHASE_COUNT; i++) /* the CPU has no device allocator: nothing measured */
        CHECK(ph.device_allocated_peak_bytes[i] == -1 && ph.device_reserved_peak_bytes[i] == -1,
              "phase %d: device peaks %lld, %lld on the cpu", i, (long long)ph.device_allocated_peak_bytes[i],
              (long long)ph.device_reserved_peak_bytes[i]);
    pf_model_free(m);
    return (double)ph.peak_bytes[PF_PHASE_FORWARD];
}

/* One layer's bytes per sample: the growth from batch 1 to 2, two layers
 * less one (the embedding, final norm and loss cancel). */
static double layer_bytes_per_sample(pf_attention a)
{
    double two = forward_peak(2, 2, a) - forward_peak(2, 1, a);
    double one = forward_peak(1, 2, a) - forward_peak(1, 1, a);
    return two - one;
}

int main(void)
{
    CHECK(pf_init(1) == PF_OK, "init");
    const double norms = 2 * (2 * HIDDEN + 1), mlp = 4 * MLP, residuals = 2 * HIDDEN;
    const double sdpa = 2 * HEADS * HEAD_DIM + 2 * KV_HEADS * HEAD_DIM + HEADS;
    const double eager = 4 * HEADS * HEAD_DIM + HEADS * SEQ;
    double want_sdpa = 4.0 * SEQ * (norms + sdpa + mlp + residuals);
    double want_eager = 4.0 * SEQ * (norms + eager + mlp + residuals);
    double got_sdpa = layer_bytes_per_sample(PF_ATTN_SDPA), got_eager = layer_bytes_per_sample(PF_ATTN_EAGER);
    CHECK(got_sdpa == want_sdpa, "sdpa keeps %.0f bytes per layer per sample, PyTorch 2 keeps %.0f", got_sdpa,
          want_sdpa);
    CHECK(got_eager == want_eager, "eager keeps %.0f bytes per layer per sample, PyTorch 2 keeps %.0f", got_eager,
          want_eager);
    CHECK_DONE();
}
