// device_memory.hpp: the shim's side of device memory (device_memory.cpp).
#pragma once
#include <cstdint>
#include <torch/torch.h>

// A phase's peak on the device: -1 where it was not measured (the CPU, or
// no pf_device_memory_baseline taken in this process).
struct DevicePhasePeak {
    int64_t allocated = -1, reserved = -1;
};

// A phase of a step starts: CUDA's peak counters restart from what is
// live now (the run's peak so far is kept, so pf_device_memory_read still
// reports the whole run's). Nothing for other devices.
void pf_device_memory_phase_begin(const torch::Device &device);

// The phase ends: CUDA's peak since its begin; MPS has no peak counter, so
// its allocator is sampled now (also into the run's peak). Called at the
// end of each forward, backward and optimizer step.
DevicePhasePeak pf_device_memory_phase_end(const torch::Device &device);
