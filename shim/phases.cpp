// phases.cpp: per-phase peaks. The allocator's phase counter is separate
// from its whole-run peak, so marking phases never changes tensor_peak.
#include "device_memory.hpp"
#include "phases.hpp"

// The caller's reader of the process's memory (pf_set_rss_reader).
static pf_rss_reader rss_reader = nullptr;

extern "C" void pf_set_rss_reader(pf_rss_reader reader) { rss_reader = reader; }

static int64_t rss_bytes_now() { return rss_reader ? rss_reader() : -1; }

// A phase's peak is the highest over the steps run.
static void keep_highest(int64_t &kept, int64_t now)
{
    if (now > kept)
        kept = now;
}

PhaseGuard::PhaseGuard(pf_model_phase_peaks &record, pf_phase phase, const torch::Device &device)
    : record_(record), phase_(phase), device_(device), uncaught_(std::uncaught_exceptions())
{
    pf_phase_peak_reset();
    pf_device_memory_phase_begin(device_);
}

PhaseGuard::~PhaseGuard()
{
    if (std::uncaught_exceptions() == uncaught_)
        end();
}

void PhaseGuard::end()
{
    if (ended_)
        return;
    ended_ = true;
    DevicePhasePeak device = pf_device_memory_phase_end(device_);
    keep_highest(record_.device_allocated_peak_bytes[phase_], device.allocated);
    keep_highest(record_.device_reserved_peak_bytes[phase_], device.reserved);
    keep_highest(record_.peak_bytes[phase_], pf_phase_peak_bytes());
    record_.end_rss_bytes[phase_] = rss_bytes_now();
    pf_phase_peak_reset();
}
