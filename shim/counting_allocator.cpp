// counting_allocator.cpp: wraps c10's default CPU allocator and counts the
// bytes of live tensor storage, so a worker can report the exact peak that
// the OS-level RSS blurs with allocator caching and library overhead.
#include <atomic>
#include <c10/core/CPUAllocator.h>
#include "guard.hpp"

namespace {

std::atomic<int64_t> live_bytes{0};
std::atomic<int64_t> peak_bytes{0};

void raise_peak(int64_t now)
{
    int64_t seen = peak_bytes.load();
    while (now > seen && !peak_bytes.compare_exchange_weak(seen, now)) {
    }
}

// What a counted allocation carries to its deleter: the inner allocator's
// DataPtr (which frees the memory) and the size to subtract.
struct counted_block {
    c10::DataPtr inner;
    int64_t nbytes;
};

void free_counted(void *context)
{
    auto *block = static_cast<counted_block *>(context);
    live_bytes -= block->nbytes;
    delete block;
}

struct counting_allocator final : c10::Allocator {
    c10::Allocator *inner;
    explicit counting_allocator(c10::Allocator *wrapped) : inner(wrapped) {}

    c10::DataPtr allocate(size_t n) const override
    {
        c10::DataPtr data = inner->allocate(n);
        void *raw = data.get();
        c10::Device device = data.device();
        auto *block = new counted_block{std::move(data), (int64_t)n};
        raise_peak(live_bytes += (int64_t)n);
        return {raw, block, &free_counted, device};
    }
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
