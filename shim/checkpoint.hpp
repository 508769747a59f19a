// checkpoint.hpp: gradient checkpointing of one layer (checkpoint.cpp).
#pragma once
#include <torch/torch.h>

// A layer's forward as checkpointing runs it: once for its output, and
// again in backward. The caller passes it, so checkpointing calls no
// layer's code by name.
using LayerForward = torch::Tensor (*)(torch::nn::Module &layer, const torch::Tensor &x,
                                       const torch::Tensor &cos, const torch::Tensor &sin);

// Runs forward(layer, x, cos, sin) keeping only x for backward, and
// recomputes the layer there.
torch::Tensor checkpointed_layer(LayerForward forward, torch::nn::Module &layer, const torch::Tensor &x,
                                 const torch::Tensor &cos, const torch::Tensor &sin);
