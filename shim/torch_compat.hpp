// torch_compat.hpp: every difference between the libtorch versions peakfit
// builds against (Debian's 1.13, the default; PyTorch 2.x wheels through
// make LIBTORCH=auto), in one place. The rest of the shim is written once
// against what this header declares and has no version #if of its own
// (pyport.h / zconf.h style). docs/building.md lists the versions tested.
#pragma once
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <ATen/autocast_mode.h>
#include <c10/core/Allocator.h>
#include <c10/util/Exception.h>
#include <torch/torch.h>
#include <torch/version.h>

#define PF_TORCH_AT_LEAST(major, minor)                                                                        \
    (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

// The oldest libtorch supported: Debian's 1.13, the default build. Nothing
// below has a branch for an older one.
static_assert(PF_TORCH_AT_LEAST(1, 13), "peakfit builds against libtorch 1.13 or later");

#if PF_TORCH_AT_LEAST(2, 1)
#include <ATen/detail/MPSHooksInterface.h>
#endif

namespace pf_compat {

// The version of the headers compiled against, as libtorch spells it ("1.13.0").
inline const char *torch_version() { return TORCH_VERSION; }

// ---- Allocator --------------------------------------------------------------
// libtorch 2.3 made Allocator::allocate non-const and added copy_data as a
// pure virtual. A wrapping allocator derives from this and implements
// allocate_bytes; this class gives the override each version wants.
struct WrappingAllocator : c10::Allocator {
    virtual c10::DataPtr allocate_bytes(size_t n) const = 0;
#if PF_TORCH_AT_LEAST(2, 3)
    c10::DataPtr allocate(size_t n) override { return allocate_bytes(n); }
    void copy_data(void *dest, const void *src, size_t count) const override { default_copy_data(dest, src, count); }
#else
    c10::DataPtr allocate(size_t n) const override { return allocate_bytes(n); }
#endif
};

// ---- Optimizer state ---------------------------------------------------------
// The key of a parameter's entry in Optimizer::state(), as the optimizer's
// step looks it up: libtorch 1.13 keys by the TensorImpl's address as text
// (c10::guts::to_string, since removed: an ostream gives the same text),
// 2.x by the address itself. Key is the state map's key_type.
template <typename Key> Key optimizer_state_key(const torch::Tensor &p)
{
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;
        text << static_cast<const void *>(p.unsafeGetTensorImpl());
        return text.str();
    } else {
        return p.unsafeGetTensorImpl();
    }
}

// ---- Optimizer ops -----------------------------------------------------------
// PyTorch 2's multi-tensor AdamW moves exp_avg with _foreach_lerp_ (from
// 2.0); before, the same update in place as 1.13's AdamW wrote it.
inline void foreach_lerp_(std::vector<torch::Tensor> &self, const std::vector<torch::Tensor> &end, double weight)
{
#if PF_TORCH_AT_LEAST(2, 0)
    at::_foreach_lerp_(self, end, weight);
#else
    at::_foreach_mul_(self, 1 - weight);
    at::_foreach_add_(self, end, weight);
#endif
}

// Steps kept on the CPU are counted with a 0-dim tensor made once for the
// list (_foreach_add_.Tensor, 2.1's AdamW); other libtorches add 1.
inline void foreach_increment_steps_(std::vector<torch::Tensor> &steps)
{
#if PF_TORCH_AT_LEAST(2, 1)
    if (!steps.empty() && steps[0].is_cpu()) {
        at::_foreach_add_(steps, torch::scalar_tensor(1.0, torch::kFloat), 1.0);
        return;
    }
#endif
    at::_foreach_add_(steps, 1);
}

// _fused_adamw_: on CUDA from libtorch 2.1, on the CPU (and MPS) from 2.4.
constexpr const char *kFusedAdamWSince = "PyTorch's fused AdamW: cuda from libtorch 2.1, cpu and mps from 2.4";
inline bool has_fused_adamw(c10::DeviceType type)
{
    if (type == c10::DeviceType::CUDA)
        return PF_TORCH_AT_LEAST(2, 1);
    return (type == c10::DeviceType::CPU || type == c10::DeviceType::MPS) && PF_TORCH_AT_LEAST(2, 4);
}
inline void fused_adamw_(std::vector<torch::Tensor> &params, const std::vector<torch::Tensor> &grads,
                         std::vector<torch::Tensor> &exp_avgs, std::vector<torch::Tensor> &exp_avg_sqs,
                         std::vector<torch::Tensor> &steps, double lr, double beta1, double beta2,
                         double weight_decay, double eps)
{
#if PF_TORCH_AT_LEAST(2, 1)
    at::_fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, {}, steps, lr, beta1, beta2, weight_decay, eps,
                      /*amsgrad=*/false, /*maximize=*/false);
#else
    (void)params, (void)grads, (void)exp_avgs, (void)exp_avg_sqs, (void)steps;
    (void)lr, (void)beta1, (void)beta2, (void)weight_decay, (void)eps;
    throw std::logic_error("libtorch " TORCH_VERSION " has no _fused_adamw_");
#endif
}

// ---- Autocast ----------------------------------------------------------------
// libtorch 2.4 replaced one switch per device type (set_cpu_enabled,
// set_enabled for CUDA, ...) by functions taking the device type.
#if PF_TORCH_AT_LEAST(2, 4)
inline bool autocast_enabled(c10::DeviceType type) { return at::autocast::is_autocast_enabled(type); }
inline c10::ScalarType autocast_dtype(c10::DeviceType type) { return at::autocast::get_autocast_dtype(type); }
inline void set_autocast(c10::DeviceType type, c10::ScalarType dtype, bool on)
{
    at::autocast::set_autocast_dtype(type, dtype);
    at::autocast::set_autocast_enabled(type, on);
}
#else
inline bool autocast_enabled(c10::DeviceType type)
{
    return type == c10::DeviceType::CUDA ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
}
inline c10::ScalarType autocast_dtype(c10::DeviceType type)
{
    return type == c10::DeviceType::CUDA ? at::autocast::get_autocast_gpu_dtype()
                                         : at::autocast::get_autocast_cpu_dtype();
}
inline void set_autocast(c10::DeviceType type, c10::ScalarType dtype, bool on)
{
    if (type == c10::DeviceType::CUDA) {
        at::autocast::set_autocast_gpu_dtype(dtype);
        at::autocast::set_enabled(on);
    } else {
        at::autocast::set_autocast_cpu_dtype(dtype);
        at::autocast::set_cpu_enabled(on);
    }
}
#endif

// ---- Scaled dot-product attention -------------------------------------------
// at::scaled_dot_product_attention exists from 2.0 (flash and
// memory-efficient kernels that keep the output and a logsumexp for
// backward); 2.5 added enable_gqa, which takes fewer key/value heads than
// query heads without repeating them. Before 2.0 the shim supplies its own
// memory-efficient function (attention.cpp).
constexpr bool kHasNativeSdpa = PF_TORCH_AT_LEAST(2, 0);
constexpr bool kSdpaTakesGqa = PF_TORCH_AT_LEAST(2, 5);

// Causal SDPA. q: [b, h, s, d]; k, v: [b, h, s, d], or [b, kv_heads, s, d]
// with enable_gqa (only where kSdpaTakesGqa).
inline torch::Tensor native_causal_sdpa(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v,
                                        bool enable_gqa)
{
#if PF_TORCH_AT_LEAST(2, 5)
    return at::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true, /*scale=*/{}, enable_gqa);
#elif PF_TORCH_AT_LEAST(2, 0)
    if (enable_gqa)
        throw std::logic_error("scaled_dot_product_attention takes enable_gqa from libtorch 2.5");
    return at::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true);
#else
    (void)q, (void)k, (void)v, (void)enable_gqa;
    throw std::logic_error("libtorch " TORCH_VERSION " has no scaled_dot_product_attention");
#endif
}

// ---- What autograd saves -----------------------------------------------------
// libtorch 1.13's mean(dim) saves its input for backward (MeanBackward1
// holds self); 2.x's holds only the sizes and the element count.
constexpr bool kMeanSavesInput = !PF_TORCH_AT_LEAST(2, 0);

// ---- Errors ------------------------------------------------------------------
// c10::OutOfMemoryError: what the CUDA and MPS caching allocators throw.
inline bool is_out_of_memory_error(const c10::Error &e)
{
    return dynamic_cast<const c10::OutOfMemoryError *>(&e) != nullptr;
}

// ---- MPS ---------------------------------------------------------------------
// The MPS hooks report the allocator's bytes from 2.1.
struct MpsBytes {
    int64_t allocated, driver;
};
constexpr bool kHasMpsStats = PF_TORCH_AT_LEAST(2, 1);
inline std::optional<MpsBytes> mps_bytes()
{
#if PF_TORCH_AT_LEAST(2, 1)
    const auto &hooks = at::detail::getMPSHooks();
    return MpsBytes{(int64_t)hooks.getCurrentAllocatedMemory(), (int64_t)hooks.getDriverAllocatedMemory()};
#else
    return std::nullopt;
#endif
}

} // namespace pf_compat
