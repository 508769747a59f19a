// phases.cpp: per-phase peaks. The allocator's phase counter is separate
// from its whole-run peak, so marking phases never changes tensor_peak.
#include <fstream>
#include <unistd.h>
#include "guard.hpp"
#include "phases.hpp"

// Resident bytes now, from /proc/self/statm (-1 where it cannot be read).
static int64_t rss_bytes_now()
{
    std::ifstream statm("/proc/self/statm");
    long long size = 0, resident = -1;
    if (!(statm >> size >> resident))
        return -1;
    return (int64_t)resident * (int64_t)sysconf(_SC_PAGESIZE);
}

void phase_end(pf_model &m, pf_phase phase)
{
    int64_t peak = pf_phase_peak_bytes();
    if (peak > m.phases.peak_bytes[phase])
        m.phases.peak_bytes[phase] = peak;
    m.phases.end_rss_bytes[phase] = rss_bytes_now();
    pf_phase_peak_reset();
}

extern "C" pf_status pf_model_phase_peaks_get(const pf_model *m, pf_model_phase_peaks *out)
{
    PF_GUARD_BEGIN
    *out = m->phases;
    PF_GUARD_END
}
