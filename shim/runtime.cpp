// runtime.cpp: process-wide setup and facts about this libtorch build.
#include <cstring>
#include <torch/torch.h>
#include "guard.hpp"
#include "torch_compat.hpp"

void pf_install_counting_allocator();

extern "C" pf_status pf_init(int threads)
{
    PF_GUARD_BEGIN
    pf_install_counting_allocator();
    if (threads > 0)
        torch::set_num_threads(threads);
    // Start the intra-op and BLAS thread pools now, so that their stacks and
    // buffers belong to the baseline rather than to the first measured step.
    torch::Tensor a = torch::ones({64, 64});
    torch::Tensor b = torch::mm(a, a);
    (void)b.sum().item<float>();
    PF_GUARD_END
}

extern "C" const char *pf_torch_version(void) { return pf_compat::torch_version(); }

// These two answer with a plain int; an exception means "cannot tell",
// which is reported as 0 (threads unknown, device not available).
extern "C" int pf_num_threads(void)
{
    try {
        return torch::get_num_threads();
    } catch (...) {
        return 0;
    }
}

extern "C" int pf_device_available(const char *device)
{
    try {
        if (strcmp(device, "cpu") == 0)
            return 1;
        if (strcmp(device, "cuda") == 0)
            return torch::cuda::is_available() ? 1 : 0;
        if (strcmp(device, "mps") == 0)
            return at::hasMPS() ? 1 : 0;
    } catch (...) {
    }
    return 0;
}
