// device_memory.hpp: the shim's side of device memory (device_memory.cpp).
#pragma once
#include <torch/torch.h>

// Samples an MPS device's allocator (current and driver-allocated bytes)
// into the peaks pf_device_memory_read reports; nothing for other devices.
// Called at the end of each forward, backward and optimizer step.
void pf_device_memory_sample(const torch::Device &device);
