// llama.hpp: a Llama-family decoder (embedding, RMSNorm, rotary attention
// with grouped key/value heads, SwiGLU MLP, tied or separate LM head), as in
// Hugging Face's LlamaForCausalLM, so parameter counts match theirs exactly.
#pragma once
#include <torch/torch.h>
#include "peakfit_torch.h"

// A bias-free linear layer, optionally with a rank-r LoRA adapter:
// y = x W^T + (x A^T) B^T, A: [r, in], B: [out, r] (zero at start).
struct ProjectionImpl : torch::nn::Module {
    torch::Tensor weight, lora_a, lora_b;
    ProjectionImpl(int64_t in, int64_t out, int lora_rank);
    torch::Tensor forward(const torch::Tensor &x);
};
TORCH_MODULE(Projection);

struct RMSNormImpl : torch::nn::Module {
    torch::Tensor weight;
    double eps;
    RMSNormImpl(int64_t dim, double eps);
    torch::Tensor forward(const torch::Tensor &x);
};
TORCH_MODULE(RMSNorm);

// Causal attention over q, k, v: [b, heads, s, head_dim] -> [b, heads, s, head_dim]
// (attention.cpp); key/value heads are already repeated to match the queries.
torch::Tensor attention_sdpa(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v);
torch::Tensor attention_eager(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v);

struct DecoderLayerImpl : torch::nn::Module {
    int64_t heads, kv_heads, head_dim;
    pf_attention attention_kind;
    RMSNorm input_norm{nullptr}, post_attention_norm{nullptr};
    Projection q{nullptr}, k{nullptr}, v{nullptr}, o{nullptr};
    Projection gate{nullptr}, up{nullptr}, down{nullptr};
    DecoderLayerImpl(const pf_model_config &c, const pf_train_options &t);
    // x: [b, s, hidden]; cos, sin: [s, head_dim]
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &cos,
                          const torch::Tensor &sin);
    torch::Tensor attention(const torch::Tensor &x, const torch::Tensor &cos,
                            const torch::Tensor &sin);
};
TORCH_MODULE(DecoderLayer);

struct LlamaImpl : torch::nn::Module {
    pf_model_config config;
    bool checkpoint_layers;
    torch::nn::Embedding embed{nullptr};
    torch::nn::ModuleList layers{nullptr};
    RMSNorm final_norm{nullptr};
    torch::Tensor lm_head; // empty when tied to the embedding
    LlamaImpl(const pf_model_config &c, const pf_train_options &t);
    // ids: [b, s] int64 -> logits [b, s, vocab]
    torch::Tensor forward(const torch::Tensor &ids);
};
TORCH_MODULE(Llama);

// Draws every LoRA A matrix (B stays zero, so the adapters start as no-ops).
void init_adapters(torch::nn::Module &model);

// Runs layer(x) keeping only x for backward, and recomputes the layer there.
torch::Tensor checkpointed_layer(DecoderLayer &layer, const torch::Tensor &x,
                                 const torch::Tensor &cos,
                                 const torch::Tensor &sin);
