// model.hpp: what a pf_model handle holds.
#pragma once
#include <memory>
#include "decoder.hpp"
#include "optimizer.hpp"

struct pf_model {
    Decoder net{nullptr};
    pf_train_options options;
    torch::Device device{torch::kCPU};
    std::vector<torch::Tensor> trainable;
    std::unique_ptr<StepOptimizer> optimizer; // null for inference
    int64_t last_grad_bytes = 0;
    pf_model_phase_peaks phases{{-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}}; // written by each step's PhaseGuards (phases.hpp)
};
