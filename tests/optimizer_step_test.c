/* Each optimizer's step allocates what PyTorch's own allocates, checked to
 * the byte of the optimizer phase's allocator-level peak on the tiny model
 * (full fp32, state made before the step, so every form starts the phase
 * from the same weights, gradients and moments):
 *   adamw (libtorch's, one parameter at a time): two temporaries the size
 *     of the largest parameter (exp_avg_sq.sqrt(), then its quotient);
 *   adamw-foreach: the sqrt of every exp_avg_sq at once (_foreach_sqrt),
 *     plus its 4-byte step tensors (state); not adamw's two;
 *   adamw-fused: only the step tensors (where the libtorch has
 *     _fused_adamw_; else building the model is refused, with the message);
 *   sgd: one moment (momentum) where AdamW keeps two, no temporary.
 * A form that dropped its temporary, or made one PyTorch does not, moves
 * the peak by that tensor's bytes. Also: every form updates the weights as
 * AdamW does (the second step's loss agrees), one warm step peaks where two
 * plain steps do, and zero_grad = zeros keeps the gradients through the
 * next forward (its peak rises by their bytes). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "shim/peakfit_torch.h"
#include "models/model_spec.h"
#include "tests/check.h"

enum { B = 2, S = 32 };

static pf_model_config tiny(void)
{
    pf_model_config config;
    char err[256];
    model_spec_resolve("tiny", &config, err, sizeof err);
    return config;
}

/* The full technique's trainable tensors on the tiny model (tied
 * embeddings, no biases): how many, and the largest's fp32 bytes. Their
 * total is checked against the model's own count. */
static void trainable_tensors(const pf_model_config *c, int64_t *count, int64_t *largest, int64_t *total)
{
    pf_projection p[PF_LAYER_PROJECTIONS_MAX];
    pf_layer_norm norms[PF_LN_COUNT];
    int n = pf_layer_projections(c, p), k = pf_layer_norms(c, norms);
    *count = 2 + c->num_layers * (n + k); /* embeddings, final norm, each layer's */
    *largest = c->vocab_size * c->hidden_size * 4;
    *total = *largest + c->hidden_size * 4;
    for (int i = 0; i < n; i++) {
        *total += c->num_layers * p[i].in * p[i].out * 4;
        if (p[i].in * p[i].out * 4 > *largest)
            *largest = p[i].in * p[i].out * 4;
    }
    for (int i = 0; i < k; i++)
        *total += c->num_layers * norms[i].dim * 4;
}

static pf_status build(pf_optimizer o, pf_zero_grad z, pf_model **m)
{
    pf_model_config config = tiny();
    pf_train_options options = {.technique = PF_TECH_FULL, .learning_rate = 1e-3, .attention = PF_ATTN_SDPA,
                                .optimizer = o, .zero_grad = z};
    *m = NULL;
    return pf_model_new(&config, &options, 7, "cpu", m);
}

struct run {
    int64_t phase[PF_PHASE_COUNT]; /* each phase's peak, the highest over the steps */
    int64_t whole;                 /* the run's peak above what was live before the model */
    double loss;                   /* the last step's */
};

static int run(pf_optimizer o, pf_zero_grad z, int warm, int steps, struct run *r)
{
    int64_t before = pf_tensor_bytes_live();
    pf_tensor_bytes_reset_peak();
    pf_model *m;
    if (build(o, z, &m) != PF_OK) {
        CHECK(0, "%s: build: %s", optimizer_name(o), pf_last_error());
        return -1;
    }
    if (warm)
        CHECK(pf_model_warm_optimizer(m) == PF_OK, "warm: %s", pf_last_error());
    for (int i = 0; i < steps; i++)
        CHECK(pf_model_step(m, B, S, &r->loss) == PF_OK, "step: %s", pf_last_error());
    pf_model_phase_peaks ph;
    pf_model_phase_peaks_get(m, &ph);
    memcpy(r->phase, ph.peak_bytes, sizeof r->phase);
    r->whole = pf_tensor_bytes_peak() - before;
    pf_model_free(m);
    return 0;
}

static int64_t optimizer_peak(pf_optimizer o)
{
    struct run r;
    return run(o, PF_ZERO_GRAD_NONE, 1, 1, &r) == 0 ? r.phase[PF_PHASE_OPTIMIZER] : -1;
}

/* Does this libtorch have _fused_adamw_ on the CPU (2.4 and later)? */
static int has_fused_cpu(void)
{
    int major = 0, minor = 0;
    sscanf(pf_torch_version(), "%d.%d", &major, &minor);
    return major > 2 || (major == 2 && minor >= 4);
}

static void fused_refused(void)
{
    pf_model *m;
    char want[256];
    snprintf(want, sizeof want, "optimizer adamw-fused: libtorch %s has no _fused_adamw_ for cpu (PyTorch's fused "
             "AdamW: cuda from libtorch 2.1, cpu and mps from 2.4)", pf_torch_version());
    CHECK(build(PF_OPT_ADAMW_FUSED, PF_ZERO_GRAD_NONE, &m) == PF_ERR_ARG && !m, "libtorch %s built adamw-fused",
          pf_torch_version());
    CHECK(strcmp(pf_last_error(), want) == 0, "the refusal says \"%s\"", pf_last_error());
}

static void temporaries(void)
{
    pf_model_config c = tiny();
    int64_t n, largest, w;
    trainable_tensors(&c, &n, &largest, &w);
    pf_model *m;
    pf_model_stats st;
    CHECK(build(PF_OPT_ADAMW, PF_ZERO_GRAD_NONE, &m) == PF_OK, "build: %s", pf_last_error());
    pf_model_stats_get(m, &st);
    pf_model_free(m);
    CHECK(st.trainable_params * 4 == w, "the tiny model's trainable bytes: %lld counted, %lld by the layout",
          (long long)(st.trainable_params * 4), (long long)w);

    int64_t adamw = optimizer_peak(PF_OPT_ADAMW), foreach = optimizer_peak(PF_OPT_ADAMW_FOREACH);
    int64_t sgd = optimizer_peak(PF_OPT_SGD);
    CHECK(foreach - adamw == w + 4 * n - 2 * largest,
          "adamw-foreach's optimizer phase peaks %lld bytes above adamw's; want %lld (the sqrt of every "
          "exp_avg_sq, %lld, and %lld step tensors, less adamw's two of the largest parameter, %lld)",
          (long long)(foreach - adamw), (long long)(w + 4 * n - 2 * largest), (long long)w, (long long)n,
          (long long)(2 * largest));
    CHECK(adamw - sgd == w + 2 * largest,
          "adamw's optimizer phase peaks %lld bytes above sgd's; want %lld (a second moment and two temporaries "
          "of the largest parameter)", (long long)(adamw - sgd), (long long)(w + 2 * largest));
    if (!has_fused_cpu()) {
        fused_refused();
        return;
    }
    int64_t fused = optimizer_peak(PF_OPT_ADAMW_FUSED);
    CHECK(foreach - fused == w, "adamw-foreach's optimizer phase peaks %lld bytes above adamw-fused's; want %lld "
          "(the sqrt of every exp_avg_sq)", (long long)(foreach - fused), (long long)w);
}

/* Every form: one warm step peaks where two plain ones do, and the second
 * step's loss is AdamW's (SGD's is its own, only finite). */
static void same_as_plain_and_adamw(void)
{
    struct run ref;
    run(PF_OPT_ADAMW, PF_ZERO_GRAD_NONE, 0, 2, &ref);
    for (int o = PF_OPT_ADAMW; o < PF_OPT_COUNT; o++) {
        if (o == PF_OPT_ADAMW_FUSED && !has_fused_cpu())
            continue;
        struct run warm, plain;
        if (run((pf_optimizer)o, PF_ZERO_GRAD_NONE, 1, 1, &warm) || run((pf_optimizer)o, PF_ZERO_GRAD_NONE, 0, 2, &plain))
            continue;
        CHECK(warm.whole == plain.whole, "%s: one warm step peaks at %lld bytes, two plain steps at %lld",
              optimizer_name((pf_optimizer)o), (long long)warm.whole, (long long)plain.whole);
        if (o == PF_OPT_SGD)
            CHECK(isfinite(plain.loss), "sgd: second-step loss %g", plain.loss);
        else
            CHECK(fabs(plain.loss - ref.loss) <= 1e-5 * fabs(ref.loss), "%s: second-step loss %.9g, adamw's %.9g",
                  optimizer_name((pf_optimizer)o), plain.loss, ref.loss);
    }
}

/* zeros: the gradients live through the second step's forward. */
static void zeros_keeps_grads(void)
{
    pf_model_stats st;
    pf_model *m;
    CHECK(build(PF_OPT_ADAMW, PF_ZERO_GRAD_NONE, &m) == PF_OK, "build: %s", pf_last_error());
    pf_model_stats_get(m, &st);
    pf_model_free(m);
    struct run none, zeros;
    run(PF_OPT_ADAMW, PF_ZERO_GRAD_NONE, 1, 2, &none);
    run(PF_OPT_ADAMW, PF_ZERO_GRAD_ZEROS, 1, 2, &zeros);
    int64_t grads = st.trainable_params * 4;
    CHECK(zeros.phase[PF_PHASE_FORWARD] - none.phase[PF_PHASE_FORWARD] == grads,
          "zero_grad zeros: the forward peaks %lld bytes above none's; want the gradients' %lld",
          (long long)(zeros.phase[PF_PHASE_FORWARD] - none.phase[PF_PHASE_FORWARD]), (long long)grads);
    CHECK(fabs(zeros.loss - none.loss) <= 1e-6 * fabs(none.loss), "zero_grad zeros: second-step loss %.9g, none's %.9g",
          zeros.loss, none.loss);
}

int main(void)
{
    CHECK(pf_init(1) == PF_OK, "init");
    temporaries();
    same_as_plain_and_adamw();
    zeros_keeps_grads();
    CHECK_DONE();
}
