// rotary.cpp: rotary position embeddings as Hugging Face applies them.
#include <cmath>
#include "decoder.hpp"

// cos and sin of the rotary angles, [s, head_dim], as Hugging Face builds them.
std::pair<torch::Tensor, torch::Tensor> rotary_tables(const pf_model_config &c, int64_t s,
                                                      torch::TensorOptions options)
{
    int64_t d = pf_head_dim(&c);
    torch::Tensor exponents = torch::arange(0, d, 2, torch::kFloat) / (double)d;
    torch::Tensor inv_freq = torch::pow(c.rope_theta, -exponents);
    torch::Tensor angles = torch::outer(torch::arange(s, torch::kFloat), inv_freq);
    torch::Tensor full = torch::cat({angles, angles}, -1).to(options);
    return {full.cos(), full.sin()};
}

// Hugging Face's rotate_half: [x1, x2] -> [-x2, x1] on the last dimension.
static torch::Tensor rotate_half(const torch::Tensor &x)
{
    auto halves = x.chunk(2, -1);
    return torch::cat({-halves[1], halves[0]}, -1);
}

// apply_rotary_pos_emb for q or k: (x * cos) + (rotate_half(x) * sin), left to
// right, each temporary let go where Python's is (decoder.cpp's layer).
torch::Tensor rotary(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin)
{
    torch::Tensor left = x * cos;
    torch::Tensor right = rotate_half(x);
    right = right * sin;
    torch::Tensor out = left + right;
    left.reset(), right.reset(); // Python frees the left operand, then the right
    return out;
}
