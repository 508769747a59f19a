// llama.cpp: the decoder's forward pass.
#include <cmath>
#include "llama.hpp"

static unsigned lora_bit_rank(const pf_train_options &t, unsigned bit)
{
    return (t.lora_targets & bit) ? (unsigned)t.lora_rank : 0;
}

ProjectionImpl::ProjectionImpl(int64_t in, int64_t out, int lora_rank)
{
    double bound = 1.0 / std::sqrt((double)in);
    weight = register_parameter("weight", torch::empty({out, in}).uniform_(-bound, bound));
    if (lora_rank > 0) {
        // Drawn by init_adapters once the base exists, so one seed gives the
        // same base weights with or without adapters.
        lora_a = register_parameter("lora_a", torch::zeros({lora_rank, in}));
        lora_b = register_parameter("lora_b", torch::zeros({out, lora_rank}));
    }
}

torch::Tensor ProjectionImpl::forward(const torch::Tensor &x)
{
    torch::Tensor y = torch::nn::functional::linear(x, weight);
    if (lora_a.defined())
        y = y + torch::nn::functional::linear(torch::nn::functional::linear(x, lora_a), lora_b);
    return y;
}

RMSNormImpl::RMSNormImpl(int64_t dim, double eps_) : eps(eps_)
{
    weight = register_parameter("weight", torch::ones({dim}));
}

torch::Tensor RMSNormImpl::forward(const torch::Tensor &x)
{
    return x * torch::rsqrt(x.pow(2).mean(-1, true) + eps) * weight;
}

DecoderLayerImpl::DecoderLayerImpl(const pf_model_config &c, const pf_train_options &t)
    : heads(c.num_heads), kv_heads(c.num_kv_heads), head_dim(c.hidden_size / c.num_heads),
      attention_kind(t.attention)
{
    int64_t h = c.hidden_size, kv = kv_heads * head_dim, m = c.intermediate_size;
    input_norm = register_module("input_layernorm", RMSNorm(h, c.rms_norm_eps));
    post_attention_norm = register_module("post_attention_layernorm", RMSNorm(h, c.rms_norm_eps));
    q = register_module("q_proj", Projection(h, h, lora_bit_rank(t, PF_LORA_Q)));
    k = register_module("k_proj", Projection(h, kv, lora_bit_rank(t, PF_LORA_K)));
    v = register_module("v_proj", Projection(h, kv, lora_bit_rank(t, PF_LORA_V)));
    o = register_module("o_proj", Projection(h, h, lora_bit_rank(t, PF_LORA_O)));
    gate = register_module("gate_proj", Projection(h, m, lora_bit_rank(t, PF_LORA_GATE)));
    up = register_module("up_proj", Projection(h, m, lora_bit_rank(t, PF_LORA_UP)));
    down = register_module("down_proj", Projection(m, h, lora_bit_rank(t, PF_LORA_DOWN)));
}

void init_adapters(torch::nn::Module &model)
{
    torch::NoGradGuard no_grad;
    for (auto &named : model.named_parameters())
        if (named.key().size() >= 6 && named.key().compare(named.key().size() - 6, 6, "lora_a") == 0)
            named.value().uniform_(-1.0 / std::sqrt((double)named.value().size(1)),
                                   1.0 / std::sqrt((double)named.value().size(1)));
}

// Hugging Face's rotate_half: [x1, x2] -> [-x2, x1] on the last dimension.
static torch::Tensor rotate_half(const torch::Tensor &x)
{
    auto halves = x.chunk(2, -1);
    return torch::cat({-halves[1], halves[0]}, -1);
}

torch::Tensor DecoderLayerImpl::attention(const torch::Tensor &x, const torch::Tensor &cos,
                                          const torch::Tensor &sin)
{
    int64_t b = x.size(0), s = x.size(1);
    // [b, s, heads * d] -> [b, heads, s, d]
    torch::Tensor qs = q(x).view({b, s, heads, head_dim}).transpose(1, 2);
    torch::Tensor ks = k(x).view({b, s, kv_heads, head_dim}).transpose(1, 2);
    torch::Tensor vs = v(x).view({b, s, kv_heads, head_dim}).transpose(1, 2);
    qs = qs * cos + rotate_half(qs) * sin;
    ks = ks * cos + rotate_half(ks) * sin;
    // Grouped-query attention: each key/value head serves heads/kv_heads
    // queries, repeated as transformers' repeat_kv does for both paths.
    ks = ks.repeat_interleave(heads / kv_heads, 1);
    vs = vs.repeat_interleave(heads / kv_heads, 1);
    torch::Tensor out = attention_kind == PF_ATTN_EAGER ? attention_eager(qs, ks, vs) : attention_sdpa(qs, ks, vs);
    return o(out.transpose(1, 2).reshape({b, s, heads * head_dim}));
}

torch::Tensor DecoderLayerImpl::forward(const torch::Tensor &x, const torch::Tensor &cos,
                                        const torch::Tensor &sin)
{
    torch::Tensor h = x + attention(input_norm(x), cos, sin);
    torch::Tensor n = post_attention_norm(h);
    return h + down(torch::silu(gate(n)) * up(n));
}

LlamaImpl::LlamaImpl(const pf_model_config &c, const pf_train_options &t)
    : config(c),
      checkpoint_layers(pf_technique_info_of(t.technique)->checkpoint)
{
    embed = register_module("embed_tokens", torch::nn::Embedding(c.vocab_size, c.hidden_size));
    {
        // Hugging Face's initializer_range: with N(0, 1) and a tied head the
        // logits, and so the loss, would be absurdly large.
        torch::NoGradGuard no_grad;
        embed->weight.normal_(0.0, 0.02);
    }
    layers = register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < c.num_layers; i++)
        layers->push_back(DecoderLayer(c, t));
    final_norm = register_module("norm", RMSNorm(c.hidden_size, c.rms_norm_eps));
    if (!c.tie_embeddings)
        lm_head = register_parameter("lm_head", torch::randn({c.vocab_size, c.hidden_size}) * 0.02);
}

// cos and sin of the rotary angles, [s, head_dim], as Hugging Face builds them.
static std::pair<torch::Tensor, torch::Tensor> rotary_tables(const pf_model_config &c, int64_t s,
                                                             torch::TensorOptions options)
{
    int64_t d = c.hidden_size / c.num_heads;
    torch::Tensor exponents = torch::arange(0, d, 2, torch::kFloat) / (double)d;
    torch::Tensor inv_freq = torch::pow(c.rope_theta, -exponents);
    torch::Tensor angles = torch::outer(torch::arange(s, torch::kFloat), inv_freq);
    torch::Tensor full = torch::cat({angles, angles}, -1).to(options);
    return {full.cos(), full.sin()};
}

torch::Tensor LlamaImpl::forward(const torch::Tensor &ids)
{
    torch::Tensor x = embed(ids);
    auto [cos, sin] = rotary_tables(config, ids.size(1), x.options());
    bool recompute = checkpoint_layers && torch::GradMode::is_enabled();
    // With a frozen embedding (LoRA) nothing entering the first checkpoint
    // requires grad, and autograd would skip its backward and so every
    // adapter's gradient; Hugging Face's enable_input_require_grads does this.
    if (recompute && !x.requires_grad())
        x.requires_grad_(true);
    for (size_t i = 0; i < layers->size(); i++) {
        DecoderLayer layer = layers->ptr<DecoderLayerImpl>(i);
        x = recompute ? checkpointed_layer(layer, x, cos, sin) : layer(x, cos, sin);
    }
    x = final_norm(x);
    const torch::Tensor &head = lm_head.defined() ? lm_head : embed->weight;
    return torch::nn::functional::linear(x, head);
}
