// optimizer.hpp: the optimizer a training step runs (core/optimizer.h's
// PF_OPTIMIZERS) and zero_grad. Each AdamW form is built from the ATen ops
// PyTorch's torch.optim.AdamW calls for it, in PyTorch 2's order, so that
// its temporaries are the ones a Python loop allocates: the multi-tensor
// form's sqrt of every exp_avg_sq at once, libtorch's per-parameter form's
// two of one parameter, none for the fused kernel.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include <torch/torch.h>
#include "peakfit_torch.h"

class StepOptimizer {
public:
    virtual ~StepOptimizer() = default;
    // One step over the parameters that have a gradient; the first makes
    // the state of those that have none, as PyTorch's _init_group does.
    virtual void step() = 0;
    // The state the first step would make, zero-filled with step 0, for
    // every parameter that has none (a resumed run holds it so).
    virtual void make_state() = 0;
    // Bytes of the state tensors the size of a weight (moments, momentum).
    virtual int64_t state_bytes() const = 0;
};

// Why choice cannot run on device with this libtorch ("optimizer
// adamw-fused: libtorch 1.13.0 has no _fused_adamw_ for cpu (...)"), or "".
std::string optimizer_problem(pf_optimizer choice, const torch::Device &device);

// The optimizer opts names over params (auto resolved for device), with
// opts' rates. Throws std::invalid_argument naming what is missing where
// this libtorch lacks the optimizer's op on device.
std::unique_ptr<StepOptimizer> make_step_optimizer(const pf_train_options &opts,
                                                   const std::vector<torch::Tensor> &params, const torch::Device &device);

// What optimizer.zero_grad() leaves: none frees each gradient, zeros
// keeps it, zeroed in place, through the next forward.
void zero_grads(const std::vector<torch::Tensor> &params, pf_zero_grad how);
