// counting_allocator.cpp: wraps c10's default CPU allocator and counts the
// bytes of live tensor storage, so a worker can report the exact peak that
// the OS-level RSS blurs with allocator caching and library overhead.
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <c10/core/CPUAllocator.h>
#include "guard.hpp"
#include "torch_compat.hpp"

namespace {

std::atomic<int64_t> live_bytes{0};
std::atomic<int64_t> peak_bytes{0};
std::atomic<int64_t> phase_peak_bytes{0}; // the same, since the phase began (phases.cpp)

void raise(std::atomic<int64_t> &peak, int64_t now)
{
    int64_t seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
}

void raise_peak(int64_t now)
{
    raise(peak_bytes, now);
    raise(phase_peak_bytes, now);
}

// Sizes of live blocks, by address. The data pointer must stay its own
// context: c10's raw_allocate (used by the bf16 kernels) asserts it.
std::mutex sizes_lock;
std::unordered_map<void *, int64_t> sizes;
c10::DeleterFnPtr inner_delete = nullptr;

void delete_counted(void *ptr)
{
    if (!ptr)
        return;
    {
        std::lock_guard<std::mutex> hold(sizes_lock);
        auto it = sizes.find(ptr);
        if (it != sizes.end()) {
            live_bytes -= it->second;
            sizes.erase(it);
        }
    }
    inner_delete(ptr);
}

struct counting_allocator final : pf_compat::WrappingAllocator {
    c10::Allocator *inner;
    explicit counting_allocator(c10::Allocator *wrapped) : inner(wrapped)
    {
        inner_delete = wrapped->raw_deleter();
    }

    c10::DataPtr allocate_bytes(size_t n) const override
    {
        c10::DataPtr data = inner->allocate(n);
        c10::Device device = data.device();
        void *raw = data.release_context();
        if (raw) {
            std::lock_guard<std::mutex> hold(sizes_lock);
            sizes[raw] = (int64_t)n;
        }
        raise_peak(live_bytes += (int64_t)n);
        return {raw, raw, &delete_counted, device};
    }

    c10::DeleterFnPtr raw_deleter() const override { return &delete_counted; }
};

} // namespace

void pf_install_counting_allocator()
{
    // Priority 1 beats the default allocator's registration (priority 0);
    // c10 takes ownership of the pointer.
    static counting_allocator *installed = nullptr;
    if (installed)
        return;
    installed = new counting_allocator(c10::GetDefaultCPUAllocator());
    c10::SetCPUAllocator(installed, 1);
}

extern "C" int64_t pf_tensor_bytes_live(void) { return live_bytes.load(); }
extern "C" int64_t pf_tensor_bytes_peak(void) { return peak_bytes.load(); }
extern "C" void pf_tensor_bytes_reset_peak(void) { peak_bytes.store(live_bytes.load()); }

int64_t pf_phase_peak_bytes() { return phase_peak_bytes.load(); }
void pf_phase_peak_reset() { phase_peak_bytes.store(live_bytes.load()); }
