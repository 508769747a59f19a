// autocast.hpp: the C++ side of `with torch.autocast(device, dtype=torch.bfloat16):`.
#pragma once
#include <torch/torch.h>

// Enables bf16 autocast for the device's type while alive. On leaving, as
// torch.autocast's __exit__ does, it drops the cache of bf16 copies of the
// weights made during the forward pass: those copies are part of the
// forward's memory, not of backward's.
class AutocastBf16 {
  public:
    explicit AutocastBf16(const torch::Device &device);
    ~AutocastBf16();
    AutocastBf16(const AutocastBf16 &) = delete;
    AutocastBf16 &operator=(const AutocastBf16 &) = delete;

  private:
    c10::DeviceType type_;
    bool was_enabled_;
    c10::ScalarType was_dtype_;
};
