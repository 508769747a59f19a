// model.cpp: building a model for a technique, and running its steps.
#include <cmath>
#include <optional>
#include <sstream>
#include "autocast.hpp"
#include "device_memory.hpp"
#include "guard.hpp"
#include "model.hpp"
#include "phases.hpp"

// A technique's properties come from its row of PF_TECHNIQUES, never from
// its name: a new technique is one row there.
static bool is_lora(pf_technique t) { return pf_technique_info_of(t)->lora; }
static bool is_training(pf_technique t) { return pf_technique_info_of(t)->training; }

static std::string config_problem(const pf_model_config &c, const pf_train_options &t)
{
    std::ostringstream why;
    int64_t d = pf_head_dim(&c);
    if (c.hidden_size <= 0 || c.num_layers <= 0 || c.num_heads <= 0 || c.num_kv_heads <= 0 ||
        c.intermediate_size <= 0 || c.vocab_size <= 0 || c.head_dim < 0)
        why << "every size in the model config must be positive";
    else if (c.head_dim == 0 && c.hidden_size % c.num_heads != 0)
        why << "hidden_size " << c.hidden_size << " is not a multiple of num_attention_heads " << c.num_heads;
    else if (c.num_heads % c.num_kv_heads != 0)
        why << "num_attention_heads " << c.num_heads << " is not a multiple of num_key_value_heads " << c.num_kv_heads;
    else if (!(c.arch & PF_ARCH_LEARNED_POSITIONS) && d % 2 != 0)
        why << "head dimension " << d << " must be even for rotary embeddings";
    else if ((c.arch & PF_ARCH_LEARNED_POSITIONS) && c.max_positions <= 0)
        why << "a model with learned positions needs n_positions";
    else if (t.technique < 0 || t.technique >= PF_TECH_COUNT)
        why << "unknown technique " << (int)t.technique;
    else if (is_lora(t.technique) && (t.lora_rank <= 0 || t.lora_targets == 0))
        why << "LoRA needs a positive rank and at least one target module";
    return why.str();
}

static void choose_trainable(pf_model &m)
{
    bool lora = is_lora(m.options.technique);
    for (auto &named : m.net->named_parameters()) {
        bool adapter = named.key().find("lora_") != std::string::npos;
        bool train = is_training(m.options.technique) && (!lora || adapter);
        named.value().set_requires_grad(train);
        if (train)
            m.trainable.push_back(named.value());
    }
}

extern "C" pf_status pf_optimizer_check(pf_optimizer optimizer, const char *device)
{
    PF_GUARD_BEGIN
    std::string problem = optimizer_problem(optimizer, torch::Device(device));
    if (!problem.empty()) {
        pf_set_last_error(problem);
        return PF_ERR_ARG;
    }
    PF_GUARD_END
}

extern "C" pf_status pf_model_new(const pf_model_config *config, const pf_train_options *options,
                                  uint64_t seed, const char *device, pf_model **out)
{
    PF_GUARD_BEGIN
    *out = nullptr;
    pf_train_options opts = *options;
    if (!is_lora(opts.technique))
        opts.lora_rank = 0;
    std::string problem = config_problem(*config, opts);
    if (problem.empty() && is_training(opts.technique))
        problem = optimizer_problem(opts.optimizer, torch::Device(device));
    if (!problem.empty()) {
        pf_set_last_error(problem);
        return PF_ERR_ARG;
    }
    torch::manual_seed(seed);
    auto m = std::make_unique<pf_model>();
    m->options = opts;
    m->device = torch::Device(device);
    m->net = Decoder(*config, opts);
    init_adapters(*m->net);
    if (pf_technique_info_of(opts.technique)->precision == PF_BF16)
        m->net->to(torch::kBFloat16);
    m->net->to(m->device);
    choose_trainable(*m);
    if (is_training(opts.technique)) {
        m->net->train();
        m->optimizer = make_step_optimizer(opts, m->trainable, m->device);
    } else {
        m->net->eval();
    }
    *out = m.release();
    PF_GUARD_END
}

// Random token ids, [b, s]: memory does not depend on their values.
static torch::Tensor random_tokens(const pf_model &m, int64_t b, int64_t s)
{
    auto opts = torch::TensorOptions().dtype(torch::kLong).device(m.device);
    return torch::randint(m.net->config.vocab_size, {b, s}, opts);
}

// transformers' causal-LM loss (labels = input ids): the logits upcast to
// fp32 (a copy only when they are not fp32 already) and the labels, not the
// logits, shifted left, the last position ignored; mean over the rest.
static torch::Tensor causal_lm_loss(const torch::Tensor &logits, const torch::Tensor &ids)
{
    int64_t b = ids.size(0), s = ids.size(1);
    torch::Tensor labels = torch::cat({ids.narrow(1, 1, s - 1), torch::full({b, 1}, -100, ids.options())}, 1);
    return torch::nn::functional::cross_entropy(
        logits.to(torch::kFloat).view({b * s, -1}), labels.view({b * s}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
}

// Forward and the loss, under bf16 autocast for amp-bf16 (as a training
// loop's `with torch.autocast(...)` block: backward runs outside it).
static torch::Tensor forward_loss(pf_model &m, const torch::Tensor &ids)
{
    if (pf_technique_info_of(m.options.technique)->precision != PF_AMP_BF16)
        return causal_lm_loss(m.net->forward(ids), ids);
    AutocastBf16 autocast(m.device);
    return causal_lm_loss(m.net->forward(ids), ids);
}

// Forward and backward, each a phase; the logits die here, before the
// optimizer runs. optimizer (a step's): its phase starts where backward's
// ends, the loss still alive, as the allocator's counter runs on.
static double forward_backward(pf_model &m, int64_t b, int64_t s, std::optional<PhaseGuard> *optimizer = nullptr)
{
    torch::Tensor loss;
    {
        PhaseGuard forward(m.phases, PF_PHASE_FORWARD, m.device);
        loss = forward_loss(m, random_tokens(m, b, s));
    }
    {
        PhaseGuard backward(m.phases, PF_PHASE_BACKWARD, m.device);
        loss.backward();
    }
    if (optimizer)
        optimizer->emplace(m.phases, PF_PHASE_OPTIMIZER, m.device);
    m.last_grad_bytes = 0;
    for (auto &p : m.trainable)
        if (p.grad().defined())
            m.last_grad_bytes += p.grad().nbytes();
    return loss.item<double>();
}

// Gradients freed, as zero_grad(set_to_none=True) leaves them (libtorch
// 1.13's Optimizer::zero_grad would keep them through the next forward).
static void free_grads(pf_model &m) { zero_grads(m.trainable, PF_ZERO_GRAD_NONE); }

extern "C" pf_status pf_model_step(pf_model *m, int64_t batch, int64_t seq_len, double *loss_out)
{
    PF_GUARD_BEGIN
    *loss_out = NAN;
    if (batch <= 0 || seq_len <= 0) {
        pf_set_last_error("batch and seq_len must be positive");
        return PF_ERR_ARG;
    }
    pf_technique t = m->options.technique;
    if (!pf_technique_info_of(t)->steps) {
        // load: the model is built, nothing runs
    } else if (!is_training(t)) {
        torch::NoGradGuard no_grad;
        PhaseGuard forward(m->phases, PF_PHASE_FORWARD, m->device);
        (void)m->net->forward(random_tokens(*m, batch, seq_len));
    } else {
        std::optional<PhaseGuard> optimizer;
        *loss_out = forward_backward(*m, batch, seq_len, &optimizer);
        m->optimizer->step();
        optimizer->end();
        zero_grads(m->trainable, m->options.zero_grad);
    }
    PF_GUARD_END
}

extern "C" pf_status pf_model_loss_and_grad_norm(pf_model *m, int64_t batch, int64_t seq_len,
                                                 uint64_t data_seed, double *loss_out,
                                                 double *grad_norm_out)
{
    PF_GUARD_BEGIN
    if (!is_training(m->options.technique)) {
        pf_set_last_error("gradients need a training technique");
        return PF_ERR_ARG;
    }
    torch::manual_seed(data_seed);
    *loss_out = forward_backward(*m, batch, seq_len);
    double squares = 0;
    for (auto &p : m->trainable)
        if (p.grad().defined())
            squares += p.grad().to(torch::kDouble).pow(2).sum().item<double>();
    *grad_norm_out = std::sqrt(squares);
    free_grads(*m);
    PF_GUARD_END
}

extern "C" pf_status pf_model_warm_optimizer(pf_model *m)
{
    PF_GUARD_BEGIN
    if (m->optimizer)
        m->optimizer->make_state();
    PF_GUARD_END
}

extern "C" pf_status pf_model_stats_get(const pf_model *m, pf_model_stats *out)
{
    PF_GUARD_BEGIN
    *out = pf_model_stats{};
    for (auto &p : m->net->parameters()) {
        out->params += p.numel();
        out->weight_bytes += p.nbytes();
        if (p.requires_grad())
            out->trainable_params += p.numel();
    }
    out->grad_bytes = m->last_grad_bytes;
    out->optimizer_bytes = m->optimizer ? m->optimizer->state_bytes() : 0;
    PF_GUARD_END
}

extern "C" void pf_model_free(pf_model *m) { delete m; }

extern "C" pf_status pf_model_phase_peaks_get(const pf_model *m, pf_model_phase_peaks *out)
{
    PF_GUARD_BEGIN
    *out = m->phases;
    PF_GUARD_END
}
