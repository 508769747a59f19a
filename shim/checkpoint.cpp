// checkpoint.cpp: gradient checkpointing per decoder layer. libtorch's C++
// API has no torch.utils.checkpoint, so this is the reentrant variant: the
// forward runs without a graph and keeps only the layer's input; backward
// recomputes the layer with grad enabled and backpropagates through it,
// which accumulates the layer's parameter gradients directly.
#include "checkpoint.hpp"

namespace {

struct CheckpointFunction : torch::autograd::Function<CheckpointFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext *ctx, torch::Tensor x,
                                 torch::Tensor cos, torch::Tensor sin, LayerForward run, torch::nn::Module *layer)
    {
        ctx->save_for_backward({x, cos, sin});
        ctx->saved_data["run"] = reinterpret_cast<int64_t>(run);
        ctx->saved_data["layer"] = reinterpret_cast<int64_t>(layer);
        return run(*layer, x, cos, sin);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grad_out)
    {
        auto saved = ctx->get_saved_variables();
        auto run = reinterpret_cast<LayerForward>(ctx->saved_data["run"].toInt());
        auto *layer = reinterpret_cast<torch::nn::Module *>(ctx->saved_data["layer"].toInt());
        torch::Tensor x = saved[0].detach().requires_grad_(true);
        torch::Tensor y;
        {
            torch::AutoGradMode enable(true);
            y = run(*layer, x, saved[1], saved[2]);
        }
        torch::autograd::backward({y}, {grad_out[0]});
        return {x.grad(), torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

torch::Tensor checkpointed_layer(LayerForward forward, torch::nn::Module &layer, const torch::Tensor &x,
                                 const torch::Tensor &cos, const torch::Tensor &sin)
{
    return CheckpointFunction::apply(x, cos, sin, forward, &layer);
}
