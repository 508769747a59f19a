// optimizer.cpp: the optimizers of core/optimizer.h, and zero_grad.
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include "core/optimizer.h"
#include "optimizer.hpp"
#include "torch_compat.hpp"

namespace {

// PyTorch's defaults for torch.optim.AdamW (and libtorch's AdamWOptions).
constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;

// What a training step's AdamW is given: its learning rate and its
// decoupled weight decay.
struct AdamWRates {
    double lr, weight_decay;
};
constexpr double kSgdMomentum = 0.9;

// One of libtorch's optimizers, whose state entry for a parameter is made
// by new_state(p) where make_state finds none; bytes(entry) counts it.
template <typename Optimizer, typename State> class Libtorch : public StepOptimizer {
public:
    template <typename Options>
    Libtorch(const std::vector<torch::Tensor> &params, Options options) : opt_(params, options) {}
    void step() override { opt_.step(); }
    void make_state() override
    {
        auto &state = opt_.state();
        using Key = typename std::decay_t<decltype(state)>::key_type;
        for (auto &group : opt_.param_groups())
            for (auto &p : group.params()) {
                Key key = pf_compat::optimizer_state_key<Key>(p);
                if (state.find(key) == state.end())
                    state[key] = new_state(p);
            }
    }
    int64_t state_bytes() const override
    {
        int64_t n = 0;
        for (auto &entry : opt_.state())
            n += bytes(static_cast<const State &>(*entry.second));
        return n;
    }

private:
    Optimizer opt_;
    static std::unique_ptr<State> new_state(const torch::Tensor &p);
    static int64_t bytes(const State &s);
};

torch::Tensor zeros_as(const torch::Tensor &p) { return torch::zeros_like(p, torch::MemoryFormat::Preserve); }
int64_t nbytes_if(const torch::Tensor &t) { return t.defined() ? (int64_t)t.nbytes() : 0; }

// AdamW's first step makes zero moments and step 0 (amsgrad is off), so
// the first real step computes what it would have, the state already there.
using LibtorchAdamW = Libtorch<torch::optim::AdamW, torch::optim::AdamWParamState>;
template <> std::unique_ptr<torch::optim::AdamWParamState> LibtorchAdamW::new_state(const torch::Tensor &p)
{
    auto s = std::make_unique<torch::optim::AdamWParamState>();
    s->step(0);
    s->exp_avg(zeros_as(p));
    s->exp_avg_sq(zeros_as(p));
    return s;
}
template <> int64_t LibtorchAdamW::bytes(const torch::optim::AdamWParamState &s)
{
    return nbytes_if(s.exp_avg()) + nbytes_if(s.exp_avg_sq()) + nbytes_if(s.max_exp_avg_sq());
}

// SGD's first step clones the gradient into its momentum buffer; a zero
// buffer gives the same update (0.9 * 0 + g) with the buffer already made.
// torch.optim.SGD's multi-tensor form (its default on CUDA) allocates
// nothing more than this one: its updates are in place.
using LibtorchSgd = Libtorch<torch::optim::SGD, torch::optim::SGDParamState>;
template <> std::unique_ptr<torch::optim::SGDParamState> LibtorchSgd::new_state(const torch::Tensor &p)
{
    auto s = std::make_unique<torch::optim::SGDParamState>();
    s->momentum_buffer(zeros_as(p));
    return s;
}
template <> int64_t LibtorchSgd::bytes(const torch::optim::SGDParamState &s) { return nbytes_if(s.momentum_buffer()); }

// torch.optim.AdamW with foreach=True or fused=True: Adam._init_group makes
// the state (step, exp_avg, exp_avg_sq, one parameter after another), then
// _multi_tensor_adam or _fused_adam runs over each device and dtype's lists.
class MultiTensorAdamW : public StepOptimizer {
public:
    MultiTensorAdamW(const std::vector<torch::Tensor> &params, AdamWRates rates, bool fused)
        : params_(params), state_(params.size()), lr_(rates.lr), weight_decay_(rates.weight_decay), fused_(fused) {}
    void step() override;
    void make_state() override
    {
        for (size_t i = 0; i < params_.size(); i++)
            make_state_of(i);
    }
    int64_t state_bytes() const override
    {
        int64_t n = 0;
        for (auto &s : state_)
            n += nbytes_if(s.exp_avg) + nbytes_if(s.exp_avg_sq);
        return n;
    }

private:
    struct State {
        torch::Tensor step, exp_avg, exp_avg_sq;
    };
    // One device and dtype's tensors, in the parameters' order.
    struct Lists {
        torch::Device device{torch::kCPU};
        torch::ScalarType dtype;
        std::vector<torch::Tensor> params, grads, exp_avgs, exp_avg_sqs, steps;
    };
    std::vector<torch::Tensor> params_;
    std::vector<State> state_;
    double lr_, weight_decay_;
    bool fused_;

    // The step counter: a CPU float32 scalar unless fused (then on the
    // parameter's device), as _init_group hosts it.
    void make_state_of(size_t i)
    {
        State &s = state_[i];
        if (s.exp_avg.defined())
            return;
        const torch::Tensor &p = params_[i];
        auto scalar = torch::TensorOptions().dtype(torch::kFloat);
        s.step = torch::zeros({}, fused_ ? scalar.device(p.device()) : scalar);
        s.exp_avg = zeros_as(p);
        s.exp_avg_sq = zeros_as(p);
    }
    std::vector<Lists> grouped();
    void foreach_step(Lists &l) const;
    void fused_step(Lists &l) const;
};

// _init_group over the parameters with a gradient, then
// _group_tensors_by_device_and_dtype (groups in order of first appearance).
std::vector<MultiTensorAdamW::Lists> MultiTensorAdamW::grouped()
{
    std::vector<Lists> groups;
    for (size_t i = 0; i < params_.size(); i++) {
        const torch::Tensor &p = params_[i];
        if (!p.grad().defined())
            continue;
        make_state_of(i);
        Lists *l = nullptr;
        for (auto &g : groups)
            if (g.device == p.device() && g.dtype == p.scalar_type())
                l = &g;
        if (!l) {
            groups.push_back(Lists{p.device(), p.scalar_type(), {}, {}, {}, {}, {}});
            l = &groups.back();
        }
        l->params.push_back(p);
        l->grads.push_back(p.grad());
        l->exp_avgs.push_back(state_[i].exp_avg);
        l->exp_avg_sqs.push_back(state_[i].exp_avg_sq);
        l->steps.push_back(state_[i].step);
    }
    return groups;
}

void MultiTensorAdamW::step()
{
    torch::NoGradGuard no_grad;
    for (auto &l : grouped())
        fused_ ? fused_step(l) : foreach_step(l);
}

// _multi_tensor_adam with decoupled weight decay, capturable off: every
// update in place but the denominator, one new tensor per exp_avg_sq,
// all alive until the parameters are updated.
void MultiTensorAdamW::foreach_step(Lists &l) const
{
    pf_compat::foreach_increment_steps_(l.steps);
    at::_foreach_mul_(l.params, 1 - lr_ * weight_decay_);
    pf_compat::foreach_lerp_(l.exp_avgs, l.grads, 1 - kBeta1);
    at::_foreach_mul_(l.exp_avg_sqs, kBeta2);
    at::_foreach_addcmul_(l.exp_avg_sqs, l.grads, l.grads, 1 - kBeta2);
    std::vector<at::Scalar> step_size, bias_correction2_sqrt;
    for (auto &step : l.steps) {
        double t = step.item<double>();
        step_size.emplace_back(lr_ / (1 - std::pow(kBeta1, t)) * -1);
        bias_correction2_sqrt.emplace_back(std::sqrt(1 - std::pow(kBeta2, t)));
    }
    std::vector<torch::Tensor> exp_avg_sq_sqrt = at::_foreach_sqrt(l.exp_avg_sqs);
    at::_foreach_div_(exp_avg_sq_sqrt, bias_correction2_sqrt);
    at::_foreach_add_(exp_avg_sq_sqrt, kEps);
    at::_foreach_addcdiv_(l.params, l.exp_avgs, exp_avg_sq_sqrt, step_size);
}

// _fused_adam: the steps counted, then one kernel that updates in place.
void MultiTensorAdamW::fused_step(Lists &l) const
{
    at::_foreach_add_(l.steps, 1);
    pf_compat::fused_adamw_(l.params, l.grads, l.exp_avgs, l.exp_avg_sqs, l.steps, lr_, kBeta1, kBeta2,
                            weight_decay_, kEps);
}

} // namespace

std::string optimizer_problem(pf_optimizer choice, const torch::Device &device)
{
    if (optimizer_resolved(choice, device.str().c_str()) != PF_OPT_ADAMW_FUSED ||
        pf_compat::has_fused_adamw(device.type()))
        return "";
    return std::string("optimizer adamw-fused: libtorch ") + pf_compat::torch_version() +
           " has no _fused_adamw_ for " + device.str() + " (" + pf_compat::kFusedAdamWSince + ")";
}

std::unique_ptr<StepOptimizer> make_step_optimizer(const pf_train_options &opts,
                                                   const std::vector<torch::Tensor> &params, const torch::Device &device)
{
    std::string problem = optimizer_problem(opts.optimizer, device);
    if (!problem.empty())
        throw std::invalid_argument(problem);
    const AdamWRates adamw = {opts.learning_rate, opts.weight_decay};
    switch (optimizer_resolved(opts.optimizer, device.str().c_str())) {
    case PF_OPT_ADAMW_FOREACH: return std::make_unique<MultiTensorAdamW>(params, adamw, false);
    case PF_OPT_ADAMW_FUSED: return std::make_unique<MultiTensorAdamW>(params, adamw, true);
    case PF_OPT_SGD:
        return std::make_unique<LibtorchSgd>(params, torch::optim::SGDOptions(adamw.lr).momentum(kSgdMomentum));
    default:
        return std::make_unique<LibtorchAdamW>(params, torch::optim::AdamWOptions(adamw.lr)
                                                           .betas({kBeta1, kBeta2})
                                                           .eps(kEps)
                                                           .weight_decay(adamw.weight_decay));
    }
}

void zero_grads(const std::vector<torch::Tensor> &params, pf_zero_grad how)
{
    for (auto p : params) {
        if (how == PF_ZERO_GRAD_NONE)
            p.mutable_grad() = torch::Tensor();
        else if (p.grad().defined())
            p.mutable_grad().zero_();
    }
}
