// attention.cpp: causal self-attention the two ways transformers runs it.
//
// eager: the [b, h, s, s] probabilities are materialised and kept for
// backward (transformers' attn_implementation="eager").
//
// sdpa: what torch.nn.functional.scaled_dot_product_attention keeps for
// backward on PyTorch 2's flash / memory-efficient kernels: the output and a
// [b, h, s] logsumexp, never the probabilities (transformers' default,
// attn_implementation="sdpa"). With libtorch >= 2.0 the real kernel is
// called (torch_compat.hpp). libtorch 1.13 has none, so a memory-efficient attention is written
// here as a custom autograd function: forward walks over blocks of queries,
// keeping only each block's output and logsumexp; backward recomputes the
// block's probabilities from the logsumexp (Rabe & Staats 2021; Dao et al.
// 2022). Its transient memory is one block of scores, [b, h, block, s].
//
// Grouped key/value heads, as transformers passes them: eager always
// repeats them to the query heads (repeat_kv) before its matmuls, which then
// keep the repeated copies. sdpa on PyTorch >= 2.5 hands SDPA the unrepeated
// heads with enable_gqa (transformers' use_gqa_in_sdpa, no mask), and the
// fused kernels keep them as they are; before 2.5 it repeats them too.
#include <cmath>
#include <limits>
#include "decoder.hpp"
#include "torch_compat.hpp"

namespace {

// Queries per block: the transient scores are [b, h, kBlock, s].
constexpr int64_t kBlock = 128;

// transformers' repeat_kv: [b, kv_heads, s, d] -> [b, heads, s, d], key/value
// head j serving query heads j * groups .. (j + 1) * groups - 1.
torch::Tensor repeat_kv(const torch::Tensor &x, int64_t heads)
{
    int64_t groups = heads / x.size(1);
    return groups == 1 ? x : x.repeat_interleave(groups, 1);
}

// Key positions a query block [q0, q1) may attend to are [0, q1); mask[r, c]
// is true where key c lies in the future of query q0 + r.
torch::Tensor future_mask(int64_t q0, int64_t q1, const torch::Device &device)
{
    return torch::ones({q1 - q0, q1}, torch::dtype(torch::kBool).device(device)).triu(q0 + 1);
}

// Scores of one query block in fp32, masked: [b, h, q1 - q0, q1].
torch::Tensor block_scores(const torch::Tensor &q, const torch::Tensor &k, int64_t q0, int64_t q1,
                           double scale)
{
    torch::Tensor qb = q.narrow(2, q0, q1 - q0);
    torch::Tensor kb = k.narrow(2, 0, q1);
    torch::Tensor scores = torch::matmul(qb, kb.transpose(-2, -1)).to(torch::kFloat).mul_(scale);
    return scores.masked_fill_(future_mask(q0, q1, q.device()), -std::numeric_limits<float>::infinity());
}

struct MemoryEfficientAttention : torch::autograd::Function<MemoryEfficientAttention> {
    // q: [b, h, s, d]; k, v: [b, kv_heads, s, d], kept unrepeated for
    // backward as PyTorch's kernels keep them under enable_gqa; the repeated
    // copies live only while one layer's attention runs. Runs without a
    // graph (apply disables grad mode).
    static torch::Tensor forward(torch::autograd::AutogradContext *ctx, torch::Tensor q, torch::Tensor k_kv,
                                 torch::Tensor v_kv)
    {
        int64_t s = q.size(2);
        double scale = 1.0 / std::sqrt((double)q.size(3));
        torch::Tensor k = repeat_kv(k_kv, q.size(1)), v = repeat_kv(v_kv, q.size(1));
        torch::Tensor out = torch::empty_like(q);
        torch::Tensor lse = torch::empty({q.size(0), q.size(1), s}, q.options().dtype(torch::kFloat));
        for (int64_t q0 = 0; q0 < s; q0 += kBlock) {
            int64_t q1 = std::min(s, q0 + kBlock);
            torch::Tensor scores = block_scores(q, k, q0, q1, scale);
            torch::Tensor block_lse = torch::logsumexp(scores, -1, true);
            torch::Tensor p = scores.sub_(block_lse).exp_().to(v.scalar_type());
            out.narrow(2, q0, q1 - q0).copy_(torch::matmul(p, v.narrow(2, 0, q1)));
            lse.narrow(2, q0, q1 - q0).copy_(block_lse.squeeze(-1));
        }
        ctx->save_for_backward({q, k_kv, v_kv, out, lse});
        return out;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grad_out)
    {
        auto saved = ctx->get_saved_variables();
        const torch::Tensor &q = saved[0], &out = saved[3], &lse = saved[4];
        int64_t kv_heads = saved[1].size(1);
        torch::Tensor k = repeat_kv(saved[1], q.size(1)), v = repeat_kv(saved[2], q.size(1));
        torch::Tensor dout = grad_out[0].to(q.scalar_type());
        int64_t s = q.size(2);
        double scale = 1.0 / std::sqrt((double)q.size(3));
        // D_i = sum_j dout_ij out_ij: the softmax backward's row term.
        torch::Tensor rows = (dout.to(torch::kFloat) * out.to(torch::kFloat)).sum(-1, true);
        torch::Tensor dq = torch::zeros_like(q), dk = torch::zeros_like(k), dv = torch::zeros_like(v);
        for (int64_t q0 = 0; q0 < s; q0 += kBlock) {
            int64_t q1 = std::min(s, q0 + kBlock), n = q1 - q0;
            torch::Tensor p = block_scores(q, k, q0, q1, scale).sub_(lse.narrow(2, q0, n).unsqueeze(-1)).exp_();
            torch::Tensor dout_b = dout.narrow(2, q0, n);
            dv.narrow(2, 0, q1).add_(torch::matmul(p.to(v.scalar_type()).transpose(-2, -1), dout_b));
            torch::Tensor dp = torch::matmul(dout_b, v.narrow(2, 0, q1).transpose(-2, -1)).to(torch::kFloat);
            torch::Tensor ds = p.mul_(dp.sub_(rows.narrow(2, q0, n))).mul_(scale).to(q.scalar_type());
            dq.narrow(2, q0, n).copy_(torch::matmul(ds, k.narrow(2, 0, q1)));
            dk.narrow(2, 0, q1).add_(torch::matmul(ds.transpose(-2, -1), q.narrow(2, q0, n)));
        }
        return {dq, sum_groups(dk, kv_heads), sum_groups(dv, kv_heads)};
    }

    // The gradient of repeat_kv: each key/value head gets the sum over the
    // query heads it served.
    static torch::Tensor sum_groups(const torch::Tensor &grad, int64_t kv_heads)
    {
        if (grad.size(1) == kv_heads)
            return grad;
        auto shape = grad.sizes().vec();
        return grad.view({shape[0], kv_heads, shape[1] / kv_heads, shape[2], shape[3]}).sum(2);
    }
};

// The memory-efficient function, for a libtorch without SDPA. Under
// autocast, PyTorch casts SDPA's inputs to the autocast dtype (it is on the
// lower-precision list); a custom function is not, so do it here.
torch::Tensor own_sdpa(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v)
{
    c10::DeviceType type = q.device().type();
    if (pf_compat::autocast_enabled(type)) {
        auto dtype = pf_compat::autocast_dtype(type);
        return MemoryEfficientAttention::apply(q.to(dtype), k.to(dtype), v.to(dtype));
    }
    return MemoryEfficientAttention::apply(q, k, v);
}

} // namespace

torch::Tensor attention_sdpa(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v)
{
    if (!pf_compat::kHasNativeSdpa)
        return own_sdpa(q, k, v);
    if (pf_compat::kSdpaTakesGqa)
        return pf_compat::native_causal_sdpa(q, k, v, /*enable_gqa=*/q.size(1) != k.size(1));
    return pf_compat::native_causal_sdpa(q, repeat_kv(k, q.size(1)), repeat_kv(v, q.size(1)), false);
}

torch::Tensor soft_cap(torch::Tensor x, double cap)
{
    x = x / cap;
    x = torch::tanh(x);
    x = x * cap;
    return x;
}

torch::Tensor attention_eager(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v,
                              double softcap)
{
    int64_t s = q.size(2);
    torch::Tensor keys = repeat_kv(k, q.size(1)), values = repeat_kv(v, q.size(1));
    torch::Tensor scores = torch::matmul(q, keys.transpose(-2, -1)) / std::sqrt((double)q.size(3));
    if (softcap > 0) // Gemma 2's attn_logit_softcapping (transformers' eager path only)
        scores = soft_cap(std::move(scores), softcap);
    scores = scores.masked_fill(future_mask(0, s, q.device()), -std::numeric_limits<float>::infinity());
    // transformers' eager path: softmax in fp32, back to the query's dtype.
    torch::Tensor probs = torch::softmax(scores, -1, torch::kFloat).to(q.scalar_type());
    return torch::matmul(probs, values);
}
