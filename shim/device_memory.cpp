// device_memory.cpp: memory on a GPU as the device's caching allocator
// counts it. CUDA is compiled in with PF_WITH_CUDA (the Makefile defines it
// when the libtorch has libc10_cuda); MPS needs libtorch >= 2.1, whose MPS
// hooks report the allocator's bytes (there is no peak: it is sampled;
// torch_compat.hpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <torch/torch.h>
#include "device_memory.hpp"
#include "guard.hpp"
#include "torch_compat.hpp"

#ifdef PF_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#endif

namespace {

pf_device_memory at_baseline; // what pf_device_memory_baseline found
bool have_baseline = false;
int64_t mps_allocated_max = -1, mps_driver_max = -1;

pf_device_memory unknown()
{
    pf_device_memory m{};
    m.allocated_peak = m.reserved_peak = m.allocated_baseline = m.reserved_baseline = -1;
    m.context = m.total = m.ooms = -1;
    return m;
}

pf_status refuse(const char *device, const char *why)
{
    pf_set_last_error(std::string("device ") + device + ": " + why);
    return PF_ERR_ARG;
}

} // namespace

extern "C" int pf_cuda_compiled(void)
{
#ifdef PF_WITH_CUDA
    return 1;
#else
    return 0;
#endif
}

#ifdef PF_WITH_CUDA
namespace {

int cuda_index(const torch::Device &d) { return d.has_index() ? d.index() : 0; }

// CUDA's peaks over the run, folded in before each phase restarts the
// allocator's peak counters (pf_device_memory_phase_begin).
int64_t cuda_run_allocated_max = -1, cuda_run_reserved_max = -1;

// CUDA versions are 1000 * major + 10 * minor.
void version_text(int v, char *out, size_t size) { snprintf(out, size, "%d.%d", v / 1000, v % 1000 / 10); }

// The driver's own version (e.g. 580.159.03) from NVML, opened at run time
// (libnvidia-ml ships with the driver, not with CUDA); false without it.
bool nvml_driver_version(char *out, unsigned size)
{
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nvml)
        return false;
    using init_fn = int (*)();
    using version_fn = int (*)(char *, unsigned);
    auto init = reinterpret_cast<init_fn>(dlsym(nvml, "nvmlInit_v2"));
    auto version = reinterpret_cast<version_fn>(dlsym(nvml, "nvmlSystemGetDriverVersion"));
    auto shutdown = reinterpret_cast<init_fn>(dlsym(nvml, "nvmlShutdown"));
    bool ok = init && version && shutdown && init() == 0; // 0: NVML_SUCCESS
    if (ok) {
        ok = version(out, size) == 0;
        shutdown();
    }
    dlclose(nvml);
    return ok;
}

void cuda_facts(int index, pf_device_memory &m)
{
    cudaDeviceProp prop;
    C10_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
    snprintf(m.name, sizeof m.name, "%.*s", (int)sizeof m.name - 1, prop.name); // a long name is cut
    int v = 0;
    C10_CUDA_CHECK(cudaRuntimeGetVersion(&v));
    version_text(v, m.runtime_version, sizeof m.runtime_version);
    if (!nvml_driver_version(m.driver_version, sizeof m.driver_version)) {
        C10_CUDA_CHECK(cudaDriverGetVersion(&v)); // the CUDA version the driver supports
        version_text(v, m.driver_version, sizeof m.driver_version);
    }
}

// [0] is StatType::AGGREGATE, the sum over the small and large pools (the
// enum's namespace moved between versions; its value did not).
// The allocator's count of refused allocations at the baseline: read's
// ooms are the ones since.
int64_t cuda_ooms_at_baseline;

int64_t cuda_ooms(int index) { return c10::cuda::CUDACachingAllocator::getDeviceStats(index).num_ooms; }

void cuda_stats(int index, int64_t &allocated_peak, int64_t &reserved_peak, int64_t *allocated_now,
                int64_t *reserved_now)
{
    auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(index);
    allocated_peak = stats.allocated_bytes[0].peak;
    reserved_peak = stats.reserved_bytes[0].peak;
    if (allocated_now)
        *allocated_now = stats.allocated_bytes[0].current;
    if (reserved_now)
        *reserved_now = stats.reserved_bytes[0].current;
}

void cuda_baseline(int index, pf_device_memory &m)
{
    c10::cuda::set_device((c10::DeviceIndex)index);
    {
        // The context, a cuBLAS handle and its workspace, as a training
        // script has them before it builds its model.
        torch::Tensor a = torch::ones({64, 64}, torch::TensorOptions().device(torch::kCUDA, (c10::DeviceIndex)index));
        (void)torch::mm(a, a).sum().item<float>();
    }
    c10::cuda::device_synchronize();
    size_t free_bytes = 0, total_bytes = 0;
    C10_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    int64_t peak_a, peak_r;
    cuda_stats(index, peak_a, peak_r, &m.allocated_baseline, &m.reserved_baseline);
    m.total = (int64_t)total_bytes;
    // Used on the device less what the allocator holds: the context and
    // libraries' own memory (other processes on the same GPU count too).
    m.context = (int64_t)(total_bytes - free_bytes) - m.reserved_baseline;
    c10::cuda::CUDACachingAllocator::resetPeakStats(index);
    cuda_ooms_at_baseline = cuda_ooms(index);
    m.ooms = 0;
    cuda_run_allocated_max = cuda_run_reserved_max = -1;
    cuda_facts(index, m);
}

// The peaks since the counters last restarted, folded into the run's.
DevicePhasePeak cuda_fold_peaks(int index)
{
    DevicePhasePeak p;
    cuda_stats(index, p.allocated, p.reserved, nullptr, nullptr);
    cuda_run_allocated_max = std::max(cuda_run_allocated_max, p.allocated);
    cuda_run_reserved_max = std::max(cuda_run_reserved_max, p.reserved);
    return p;
}

} // namespace
#endif

static DevicePhasePeak mps_sample()
{
    DevicePhasePeak now;
    if (auto bytes = pf_compat::mps_bytes()) {
        now = {bytes->allocated, bytes->driver};
        mps_allocated_max = std::max(mps_allocated_max, bytes->allocated);
        mps_driver_max = std::max(mps_driver_max, bytes->driver);
    }
    return now;
}

void pf_device_memory_phase_begin(const torch::Device &device)
{
#ifdef PF_WITH_CUDA
    if (device.is_cuda() && have_baseline) {
        cuda_fold_peaks(cuda_index(device));
        c10::cuda::CUDACachingAllocator::resetPeakStats(cuda_index(device));
    }
#else
    (void)device;
#endif
}

DevicePhasePeak pf_device_memory_phase_end(const torch::Device &device)
{
    if (!have_baseline)
        return {};
    if (device.is_mps())
        return mps_sample();
#ifdef PF_WITH_CUDA
    if (device.is_cuda())
        return cuda_fold_peaks(cuda_index(device));
#endif
    return {};
}

extern "C" pf_status pf_device_memory_baseline(const char *device, pf_device_memory *out)
{
    PF_GUARD_BEGIN
    torch::Device d{std::string(device)};
    pf_device_memory m = unknown();
    if (d.is_cuda()) {
#ifdef PF_WITH_CUDA
        cuda_baseline(cuda_index(d), m);
#else
        return refuse(device, "this build of peakfit has no CUDA (rebuild with make LIBTORCH=auto against a PyTorch with CUDA)");
#endif
    } else if (d.is_mps()) {
        if (!pf_compat::kHasMpsStats)
            return refuse(device, "MPS memory needs libtorch 2.1 or later");
        mps_allocated_max = mps_driver_max = -1;
        mps_sample();
        m.allocated_baseline = mps_allocated_max;
        m.reserved_baseline = mps_driver_max;
        snprintf(m.name, sizeof m.name, "mps");
    } else {
        return refuse(device, "not a GPU");
    }
    at_baseline = m;
    have_baseline = true;
    *out = m;
    PF_GUARD_END
}

extern "C" pf_status pf_device_memory_read(const char *device, pf_device_memory *out)
{
    PF_GUARD_BEGIN
    torch::Device d{std::string(device)};
    if (!have_baseline)
        return refuse(device, "no baseline taken (pf_device_memory_baseline)");
    pf_device_memory m = at_baseline;
    if (d.is_cuda()) {
#ifdef PF_WITH_CUDA
        cuda_fold_peaks(cuda_index(d)); // the peak since the last phase began, too
        m.allocated_peak = cuda_run_allocated_max;
        m.reserved_peak = cuda_run_reserved_max;
        m.ooms = cuda_ooms(cuda_index(d)) - cuda_ooms_at_baseline;
#endif
    } else if (d.is_mps()) {
        m.allocated_peak = mps_allocated_max;
        m.reserved_peak = mps_driver_max;
    } else {
        return refuse(device, "not a GPU");
    }
    *out = m;
    PF_GUARD_END
}

extern "C" pf_status pf_device_memory_limit(const char *device, int64_t bytes)
{
    PF_GUARD_BEGIN
    torch::Device d{std::string(device)};
    if (!d.is_cuda())
        return refuse(device, "a memory limit on the device needs cuda");
#ifdef PF_WITH_CUDA
    if (!have_baseline || at_baseline.total <= 0)
        return refuse(device, "no baseline taken (pf_device_memory_baseline)");
    // The allocator refuses to reserve past fraction x total; the limit is
    // above what it held at the baseline.
    double fraction = (double)(bytes + at_baseline.reserved_baseline) / (double)at_baseline.total;
    c10::cuda::CUDACachingAllocator::setMemoryFraction(std::min(fraction, 1.0), cuda_index(d));
#else
    (void)bytes;
    return refuse(device, "this build of peakfit has no CUDA");
#endif
    PF_GUARD_END
}
