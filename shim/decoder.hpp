// decoder.hpp: the decoder of every family in models/model_family.c, built
// from pf_model_config's switches and the layout in core/model_config.h
// (pf_layer_projections, pf_layer_norms, pf_model_names_of). Modules are
// registered under Hugging Face's names ("model.layers.0.self_attn.q_proj",
// "transformer.h.0.attn.c_attn"), so named_parameters() are the names in a
// safetensors file and the parameter counts are theirs exactly.
#pragma once
#include <torch/torch.h>
#include "peakfit_torch.h"

// A linear projection as Hugging Face stores it: weight [out, in]
// (nn.Linear) or [in, out] (GPT-2's Conv1D), an optional bias, and
// optionally a rank-r LoRA adapter: y = x W^T + b + (x A^T) B^T,
// A: [r, in], B: [out, r] (zero at start).
struct ProjectionImpl : torch::nn::Module {
    torch::Tensor weight, bias, lora_a, lora_b;
    bool conv1d;
    ProjectionImpl(int64_t in, int64_t out, bool with_bias, bool conv1d, int lora_rank);
    torch::Tensor forward(const torch::Tensor &x);
};
TORCH_MODULE(Projection);

// RMSNorm (w from 1), Gemma's RMSNorm x (1 + w) (w from 0), or LayerNorm
// with a bias: pf_model_config.norm.
struct NormImpl : torch::nn::Module {
    torch::Tensor weight, bias;
    int kind;
    double eps;
    NormImpl(int64_t dim, int kind, double eps);
    torch::Tensor forward(const torch::Tensor &x);
};
TORCH_MODULE(Norm);

// Causal attention: q [b, heads, s, head_dim], k, v [b, kv_heads, s, head_dim] -> [b, heads, s, head_dim]
// (attention.cpp), scaled by head_dim^-0.5; k and v have the model's
// kv_heads, each serving heads / kv_heads queries. eager soft-caps its scores
// when softcap > 0.
torch::Tensor attention_sdpa(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v);
torch::Tensor attention_eager(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v,
                              double softcap = 0.0);
// Gemma 2's soft-capping, cap * tanh(x / cap), as transformers writes it:
// three statements, each reassigning x, so at most two x-sized tensors are
// alive at once (one expression would hold four). Give it x by std::move.
torch::Tensor soft_cap(torch::Tensor x, double cap);

// Rotary position embeddings (rotary.cpp): the cos and sin tables [s, head_dim]
// for positions 0..s-1, and apply_rotary_pos_emb on one of q, k.
std::pair<torch::Tensor, torch::Tensor> rotary_tables(const pf_model_config &c, int64_t s,
                                                      torch::TensorOptions options);
torch::Tensor rotary(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin);

struct DecoderLayerImpl : torch::nn::Module {
    pf_model_config config;
    int64_t heads, kv_heads, head_dim;
    pf_attention attention_kind;
    std::vector<Projection> proj; // by pf_projection_role; null where the family has none
    std::vector<Norm> norm;       // by pf_layer_norm_role; null where the family has none
    DecoderLayerImpl(const pf_model_config &c, const pf_train_options &t);
    // x: [b, s, hidden]; cos, sin: [s, head_dim] (empty with learned positions)
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin);
    torch::Tensor attention(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin);
    torch::Tensor mlp(const torch::Tensor &x);
};
TORCH_MODULE(DecoderLayer);

struct DecoderImpl : torch::nn::Module {
    pf_model_config config;
    bool checkpoint_layers;
    torch::nn::Embedding embed{nullptr}, positions{nullptr}; // positions: learned ones only
    torch::nn::ModuleList layers{nullptr};
    Norm final_norm{nullptr};
    Projection lm_head{nullptr}; // null when tied to the embedding
    DecoderImpl(const pf_model_config &c, const pf_train_options &t);
    // ids: [b, s] int64 -> logits [b, s, vocab]
    torch::Tensor forward(const torch::Tensor &ids);
};
TORCH_MODULE(Decoder);

// Draws every LoRA A matrix (B stays zero, so the adapters start as no-ops).
void init_adapters(torch::nn::Module &model);
