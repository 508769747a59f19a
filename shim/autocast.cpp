// autocast.cpp: libtorch's autocast switches changed names in 2.4 (one
// function per device type became one function taking the device type);
// both are used here, chosen by the headers' version.
#include <ATen/autocast_mode.h>
#include <torch/version.h>
#include "autocast.hpp"

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
static bool autocast_enabled(c10::DeviceType type) { return at::autocast::is_autocast_enabled(type); }
static void set_autocast(c10::DeviceType type, bool on)
{
    at::autocast::set_autocast_dtype(type, at::kBFloat16);
    at::autocast::set_autocast_enabled(type, on);
}
#else
static bool autocast_enabled(c10::DeviceType type)
{
    return type == c10::DeviceType::CUDA ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
}
static void set_autocast(c10::DeviceType type, bool on)
{
    if (type == c10::DeviceType::CUDA) {
        at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
        at::autocast::set_enabled(on);
    } else {
        at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
        at::autocast::set_cpu_enabled(on);
    }
}
#endif

AutocastBf16::AutocastBf16(const torch::Device &device) : type_(device.type()), was_enabled_(autocast_enabled(type_))
{
    set_autocast(type_, true);
    at::autocast::increment_nesting();
}

AutocastBf16::~AutocastBf16()
{
    if (at::autocast::decrement_nesting() == 0)
        at::autocast::clear_cache();
    set_autocast(type_, was_enabled_);
}
