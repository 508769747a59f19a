// autocast.cpp: bf16 autocast switched on for a scope, and back off.
// The switches' names depend on the libtorch version (torch_compat.hpp).
#include "autocast.hpp"
#include "torch_compat.hpp"

AutocastBf16::AutocastBf16(const torch::Device &device)
    : type_(device.type()), was_enabled_(pf_compat::autocast_enabled(type_)),
      was_dtype_(pf_compat::autocast_dtype(type_))
{
    pf_compat::set_autocast(type_, at::kBFloat16, true);
    at::autocast::increment_nesting();
}

AutocastBf16::~AutocastBf16()
{
    if (at::autocast::decrement_nesting() == 0)
        at::autocast::clear_cache();
    pf_compat::set_autocast(type_, was_dtype_, was_enabled_);
}
