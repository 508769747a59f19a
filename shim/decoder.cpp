// decoder.cpp: the decoder's modules and forward pass, one code path for
// every family; what differs is read off pf_model_config's switches.
#include <cmath>
#include "checkpoint.hpp"
#include "decoder.hpp"
#include "torch_compat.hpp"

// --- building blocks ----------------------------------------------------

// Random weights, cheaply: values uniform in [-bound, bound) are drawn for
// one tile of kTile and the tile is repeated over the tensor, by doubling
// copies (memcpy speed, no temporary beside the tile). What peakfit
// measures, memory, does not depend on the values, and drawing each of
// Qwen2.5-0.5B's 494M values took most of a point's build time
// (bench/build-time.sh's header). kTile is prime, so no row of a matrix
// repeats the row before it. Deterministic under torch::manual_seed.
static void fill_uniform(torch::Tensor w, double bound)
{
    constexpr int64_t kTile = 65521;
    torch::NoGradGuard no_grad;
    torch::Tensor flat = w.view({-1});
    int64_t n = flat.numel(), filled = std::min(n, kTile);
    flat.narrow(0, 0, filled).uniform_(-bound, bound);
    while (filled < n) {
        int64_t len = std::min(filled, n - filled);
        flat.narrow(0, filled, len).copy_(flat.narrow(0, 0, len));
        filled += len;
    }
}

// An embedding table [rows, dim] with Hugging Face's initializer_range
// (N(0, 0.02); uniform with the same standard deviation here): with N(0, 1)
// and a tied head the logits, and so the loss, would be absurdly large.
// Given its weight, libtorch's Embedding does not draw its own N(0, 1).
static torch::nn::Embedding embedding(int64_t rows, int64_t dim)
{
    torch::Tensor weight = torch::empty({rows, dim});
    fill_uniform(weight, 0.02 * std::sqrt(3.0));
    return torch::nn::Embedding(torch::nn::EmbeddingOptions(rows, dim)._weight(weight));
}

ProjectionImpl::ProjectionImpl(int64_t in, int64_t out, bool with_bias, bool conv1d_, int lora_rank)
    : conv1d(conv1d_)
{
    double bound = 1.0 / std::sqrt((double)in);
    std::vector<int64_t> shape = conv1d ? std::vector<int64_t>{in, out} : std::vector<int64_t>{out, in};
    weight = register_parameter("weight", torch::empty(shape));
    fill_uniform(weight, bound);
    if (with_bias)
        bias = register_parameter("bias", torch::zeros({out}));
    if (lora_rank > 0) {
        // Drawn by init_adapters once the base exists, so one seed gives the
        // same base weights with or without adapters.
        lora_a = register_parameter("lora_a", torch::zeros({lora_rank, in}));
        lora_b = register_parameter("lora_b", torch::zeros({out, lora_rank}));
    }
}

torch::Tensor ProjectionImpl::forward(const torch::Tensor &x)
{
    torch::Tensor y;
    if (!conv1d) {
        y = torch::nn::functional::linear(x, weight, bias);
    } else {
        // GPT-2's Conv1D: x W + b with W [in, out], as one addmm.
        auto shape = x.sizes().vec();
        shape.back() = weight.size(1);
        torch::Tensor flat = x.reshape({-1, x.size(-1)});
        y = (bias.defined() ? torch::addmm(bias, flat, weight) : torch::mm(flat, weight)).view(shape);
    }
    if (lora_a.defined())
        y = y + torch::nn::functional::linear(torch::nn::functional::linear(x, lora_a), lora_b);
    return y;
}

NormImpl::NormImpl(int64_t dim, int kind_, double eps_) : kind(kind_), eps(eps_)
{
    weight = register_parameter("weight", kind == PF_NORM_RMS_OFFSET ? torch::zeros({dim}) : torch::ones({dim}));
    if (kind == PF_NORM_LAYER)
        bias = register_parameter("bias", torch::zeros({dim}));
}

// RMSNorm's mean(x^2) over the last dimension, keeping for backward what
// PyTorch 2 keeps: libtorch 1.13's mean saves its input (its MeanBackward1
// holds self; PyTorch 2's holds only the sizes and the count), which would
// keep a hidden-sized x^2 per norm per token that a PyTorch 2 user's run does
// not have. ATen's CPU mean is sum then divide, so the value is the same.
static torch::Tensor mean_of_squares(const torch::Tensor &x)
{
    if (pf_compat::kMeanSavesInput)
        return x.pow(2).sum(-1, true) / (double)x.size(-1);
    return x.pow(2).mean(-1, true);
}

torch::Tensor NormImpl::forward(const torch::Tensor &x)
{
    if (kind == PF_NORM_LAYER)
        return torch::layer_norm(x, {x.size(-1)}, weight, bias, eps);
    // transformers' RMSNorms compute in fp32 whatever the model's dtype, so
    // for a bf16/fp16 model autograd keeps an fp32 copy of x (pow's and the
    // multiply's input) where x itself would be half its size: one
    // [b, s, hidden] fp32 tensor per norm, 137 MiB at SmolLM2-135M bf16 b8
    // s256 (bench/results/transformers-2.13). For an fp32 x both casts are no-ops.
    torch::Tensor h = x.to(torch::kFloat);
    h = h * torch::rsqrt(mean_of_squares(h) + eps);
    if (kind == PF_NORM_RMS_OFFSET) // Gemma: (x * (1 + w)).type_as(x)
        return (h * (1 + weight.to(torch::kFloat))).to(x.scalar_type());
    return weight * h.to(x.scalar_type()); // Llama, Qwen, ...: w * x.to(input_dtype)
}

// Registers module under a dotted name ("self_attn.q_proj"), making the
// plain modules on the way (Hugging Face's self_attn, mlp, model, ...).
template <class Holder>
static Holder register_at(torch::nn::Module &root, const std::string &dotted, Holder module)
{
    torch::nn::Module *at = &root;
    std::string rest = dotted;
    for (size_t dot; (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1)) {
        std::string part = rest.substr(0, dot);
        auto children = at->named_children();
        auto *found = children.find(part);
        at = found ? found->get() : at->register_module(part, std::make_shared<torch::nn::Module>()).get();
    }
    at->register_module(rest, module);
    return module;
}

// transformers' NewGELUActivation ("gelu_new": GPT-2, GPT-Neo, CodeGen, ...)
// op by op, as it runs there: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))),
// one statement per Python operation so each temporary dies where Python's
// does, and autograd keeps what it keeps there: x (pow's), 0.5 x, tanh's
// output and 1 + tanh, three [b, s, 4h] tensors more than the fused
// gelu(x, "tanh") of "gelu_pytorch_tanh" (bench/results/transformers-2.13).
static torch::Tensor gelu_new(const torch::Tensor &x)
{
    torch::Tensor half = 0.5 * x;
    torch::Tensor t = torch::pow(x, 3.0);
    t = 0.044715 * t;
    t = x + t;
    t = std::sqrt(2.0 / 3.14159265358979323846) * t; // math.sqrt(2.0 / math.pi)
    t = torch::tanh(t);
    t = 1.0 + t;
    return half * t;
}

static torch::Tensor activation(int kind, const torch::Tensor &x)
{
    switch (kind) {
    case PF_ACT_GELU_NEW: return gelu_new(x);
    case PF_ACT_GELU: return torch::gelu(x);
    case PF_ACT_GELU_TANH: return torch::gelu(x, "tanh");
    case PF_ACT_RELU: return torch::relu(x);
    default: return torch::silu(x);
    }
}

void init_adapters(torch::nn::Module &model)
{
    torch::NoGradGuard no_grad;
    for (auto &named : model.named_parameters())
        if (named.key().size() >= 6 && named.key().compare(named.key().size() - 6, 6, "lora_a") == 0)
            named.value().uniform_(-1.0 / std::sqrt((double)named.value().size(1)),
                                   1.0 / std::sqrt((double)named.value().size(1)));
}

// --- a layer -------------------------------------------------------------

DecoderLayerImpl::DecoderLayerImpl(const pf_model_config &c, const pf_train_options &t)
    : config(c), heads(c.num_heads), kv_heads(c.num_kv_heads), head_dim(pf_head_dim(&c)),
      attention_kind(t.attention), proj(PF_PROJ_COUNT, Projection(nullptr)), norm(PF_LN_COUNT, Norm(nullptr))
{
    pf_projection p[PF_LAYER_PROJECTIONS_MAX];
    pf_layer_norm n[PF_LN_COUNT];
    bool conv1d = c.arch & PF_ARCH_GPT2_LAYOUT;
    for (int i = 0, count = pf_layer_projections(&c, p); i < count; i++) {
        int rank = (t.lora_targets & p[i].lora_targets) ? t.lora_rank : 0;
        proj[p[i].role] = register_at(*this, p[i].name, Projection(p[i].in, p[i].out, p[i].bias, conv1d, rank));
    }
    for (int i = 0, count = pf_layer_norms(&c, n); i < count; i++)
        norm[n[i].role] = register_at(*this, n[i].name, Norm(n[i].dim, c.norm, c.rms_norm_eps));
}

// A layer runs in transformers' statement order (modeling_llama.py and kin),
// each temporary let go where Python drops its last reference: C++ leaves an
// operator's operand order unspecified (GCC ran `act(gate(x)) * up(x)`'s up
// first) and keeps temporaries and named results to the end of the full
// expression or scope. So the forward's allocations and frees come in
// transformers' order (at SmolLM2-135M b8 s256 every one of 1 MiB or more,
// traced with bench/research/rss_trace.c), and its backward's with them.

// A projection's output [b, s, n * head_dim] as [b, s, n, head_dim], through the
// per-head norm where there is one (Qwen3's q_norm, k_norm), then [b, n, s, d].
static torch::Tensor heads_of(torch::Tensor y, int64_t n, int64_t d, Norm &per_head)
{
    y = y.view({y.size(0), y.size(1), n, d});
    if (!per_head.is_empty())
        y = per_head(y);
    return y.transpose(1, 2);
}

torch::Tensor DecoderLayerImpl::attention(const torch::Tensor &x, const torch::Tensor &cos,
                                          const torch::Tensor &sin)
{
    int64_t b = x.size(0), s = x.size(1), qw = heads * head_dim, kvw = kv_heads * head_dim;
    torch::Tensor qs, ks, vs;
    Norm none(nullptr);
    if (!proj[PF_PROJ_QKV].is_empty()) { // fused: [q | k | v] on the last dimension
        torch::Tensor qkv = proj[PF_PROJ_QKV](x);
        qs = heads_of(qkv.narrow(-1, 0, qw), heads, head_dim, none);
        ks = heads_of(qkv.narrow(-1, qw, kvw), kv_heads, head_dim, none);
        vs = heads_of(qkv.narrow(-1, qw + kvw, kvw), kv_heads, head_dim, none);
    } else {
        qs = heads_of(proj[PF_PROJ_Q](x), heads, head_dim, norm[PF_LN_Q]);
        ks = heads_of(proj[PF_PROJ_K](x), kv_heads, head_dim, norm[PF_LN_K]);
        vs = heads_of(proj[PF_PROJ_V](x), kv_heads, head_dim, none);
    }
    if (cos.numel() > 0) { // both rotated before either input is let go
        torch::Tensor q_embed = rotary(qs, cos, sin), k_embed = rotary(ks, cos, sin);
        qs = std::move(q_embed), ks = std::move(k_embed);
    }
    // Grouped-query attention: ks and vs keep their kv_heads; each attention
    // repeats them as transformers does on its path (attention.cpp).
    // Gemma 2 scales by query_pre_attn_scalar^-0.5, not head_dim^-0.5.
    if (config.query_scale_base > 0 && config.query_scale_base != (double)head_dim)
        qs = qs * std::sqrt((double)head_dim / config.query_scale_base);
    torch::Tensor out = attention_kind == PF_ATTN_EAGER ? attention_eager(qs, ks, vs, config.attn_softcap)
                                                        : attention_sdpa(qs, ks, vs);
    torch::Tensor y = proj[PF_PROJ_O](out.transpose(1, 2).reshape({b, s, qw}));
    out.reset(), qs.reset(), ks.reset(), vs.reset(); // as Python's locals at return
    return y;
}

torch::Tensor DecoderLayerImpl::mlp(const torch::Tensor &x)
{
    Projection &down = proj[PF_PROJ_DOWN];
    torch::Tensor h;
    if (!proj[PF_PROJ_GATE_UP].is_empty()) { // Phi-3: [gate | up], up * act(gate)
        auto parts = proj[PF_PROJ_GATE_UP](x).chunk(2, -1);
        torch::Tensor act = activation(config.activation, parts[0]);
        h = parts[1] * act;
    } else if (!proj[PF_PROJ_GATE].is_empty()) { // act(gate(x)) * up(x), left to right
        torch::Tensor act = activation(config.activation, proj[PF_PROJ_GATE](x));
        torch::Tensor up = proj[PF_PROJ_UP](x);
        h = act * up;
        act.reset(), up.reset();
    } else {
        h = activation(config.activation, proj[PF_PROJ_UP](x));
    }
    return down(h);
}

// residual = x; h = norm(x); h = attn(h); h = residual + h; residual = h; ...
torch::Tensor DecoderLayerImpl::forward(const torch::Tensor &x, const torch::Tensor &cos,
                                        const torch::Tensor &sin)
{
    torch::Tensor h = norm[PF_LN_INPUT](x);
    h = attention(h, cos, sin);
    if (!norm[PF_LN_AFTER_ATTN].is_empty())
        h = norm[PF_LN_AFTER_ATTN](h);
    h = x + h;
    torch::Tensor residual = h;
    h = norm[PF_LN_PRE_MLP](h);
    h = mlp(h);
    if (!norm[PF_LN_AFTER_MLP].is_empty())
        h = norm[PF_LN_AFTER_MLP](h);
    h = residual + h; // the MLP's output let go, then residual
    return h;
}

// --- the model -----------------------------------------------------------

DecoderImpl::DecoderImpl(const pf_model_config &c, const pf_train_options &t)
    : config(c), checkpoint_layers(pf_technique_info_of(t.technique)->checkpoint)
{
    pf_model_names names = pf_model_names_of(&c);
    embed = register_at(*this, names.embed, embedding(c.vocab_size, c.hidden_size));
    if (c.arch & PF_ARCH_LEARNED_POSITIONS)
        positions = register_at(*this, names.positions, embedding(c.max_positions, c.hidden_size));
    layers = register_at(*this, names.layers, torch::nn::ModuleList());
    for (int64_t i = 0; i < c.num_layers; i++)
        layers->push_back(DecoderLayer(c, t));
    final_norm = register_at(*this, names.final_norm, Norm(c.hidden_size, c.norm, c.rms_norm_eps));
    if (!c.tie_embeddings) {
        lm_head = register_at(*this, names.head, Projection(c.hidden_size, c.vocab_size, false, false, 0));
        fill_uniform(lm_head->weight, 0.02 * std::sqrt(3.0));
    }
}

// The embeddings: Gemma scales them by sqrt(hidden_size); GPT-2 adds its
// learned positions, of which there are n_positions.
static torch::Tensor embeddings(DecoderImpl &m, const torch::Tensor &ids)
{
    torch::Tensor x = m.embed(ids);
    if (m.config.arch & PF_ARCH_EMBED_SCALE)
        x = x * std::sqrt((double)m.config.hidden_size);
    if (m.positions) {
        int64_t s = ids.size(1);
        if (s > m.config.max_positions)
            throw std::invalid_argument("seq_len " + std::to_string(s) + " is more than the model's " +
                                        std::to_string(m.config.max_positions) + " positions (n_positions)");
        x = x + m.positions(torch::arange(s, ids.options()));
    }
    return x;
}

// A decoder layer's forward, as checkpointed_layer runs it.
static torch::Tensor layer_forward(torch::nn::Module &layer, const torch::Tensor &x, const torch::Tensor &cos,
                                   const torch::Tensor &sin)
{
    return static_cast<DecoderLayerImpl &>(layer).forward(x, cos, sin);
}

torch::Tensor DecoderImpl::forward(const torch::Tensor &ids)
{
    // Empty tables with learned positions (checkpointing saves them, and
    // autograd cannot save an undefined tensor).
    torch::Tensor x = embeddings(*this, ids), cos = torch::empty({0}), sin = torch::empty({0});
    if (!(config.arch & PF_ARCH_LEARNED_POSITIONS))
        std::tie(cos, sin) = rotary_tables(config, ids.size(1), x.options());
    bool recompute = checkpoint_layers && torch::GradMode::is_enabled();
    // With a frozen embedding (LoRA) nothing entering the first checkpoint
    // requires grad, and autograd would skip its backward and so every
    // adapter's gradient; Hugging Face's enable_input_require_grads does this.
    if (recompute && !x.requires_grad())
        x.requires_grad_(true);
    for (size_t i = 0; i < layers->size(); i++) {
        DecoderLayer layer = layers->ptr<DecoderLayerImpl>(i);
        x = recompute ? checkpointed_layer(layer_forward, *layer, x, cos, sin) : layer(x, cos, sin);
    }
    x = final_norm(x);
    torch::Tensor logits = lm_head ? lm_head(x) : torch::nn::functional::linear(x, embed->weight);
    if (config.final_softcap > 0) // Gemma 2
        logits = soft_cap(std::move(logits), config.final_softcap);
    return logits;
}
