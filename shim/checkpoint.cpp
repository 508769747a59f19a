// checkpoint.cpp: gradient checkpointing per decoder layer. libtorch's C++
// API has no torch.utils.checkpoint, so this is the reentrant variant: the
// forward runs without a graph and keeps only the layer's input; backward
// recomputes the layer with grad enabled and backpropagates through it,
// which accumulates the layer's parameter gradients directly.
#include "decoder.hpp"

namespace {

struct CheckpointFunction : torch::autograd::Function<CheckpointFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext *ctx, torch::Tensor x,
                                 torch::Tensor cos, torch::Tensor sin, DecoderLayerImpl *layer)
    {
        ctx->save_for_backward({x, cos, sin});
        ctx->saved_data["layer"] = reinterpret_cast<int64_t>(layer);
        return layer->forward(x, cos, sin);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grad_out)
    {
        auto saved = ctx->get_saved_variables();
        auto *layer = reinterpret_cast<DecoderLayerImpl *>(ctx->saved_data["layer"].toInt());
        torch::Tensor x = saved[0].detach().requires_grad_(true);
        torch::Tensor y;
        {
            torch::AutoGradMode enable(true);
            y = layer->forward(x, saved[1], saved[2]);
        }
        torch::autograd::backward({y}, {grad_out[0]});
        return {x.grad(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

torch::Tensor checkpointed_layer(DecoderLayer &layer, const torch::Tensor &x,
                                 const torch::Tensor &cos, const torch::Tensor &sin)
{
    return CheckpointFunction::apply(x, cos, sin, layer.get());
}
