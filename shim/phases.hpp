// phases.hpp: the phases of a step (forward, backward, optimizer), each
// measured by a scoped guard: while it lives the allocator's phase counter
// runs from the bytes live at its start; when it ends (its scope's end, or
// end()) the device is sampled and the phase's peak and the RSS then are
// written into the record it was given. It knows no pf_model: the model
// hands it its record.
#pragma once
#include <exception>
#include <torch/torch.h>
#include "peakfit_torch.h"

// The counting allocator's peak since the last reset (counting_allocator.cpp).
int64_t pf_phase_peak_bytes();
void pf_phase_peak_reset();

class PhaseGuard {
public:
    PhaseGuard(pf_model_phase_peaks &record, pf_phase phase, const torch::Device &device);
    // A phase left by an exception (out of memory, say) records nothing.
    ~PhaseGuard();
    // The phase ends here, before its scope does.
    void end();
    PhaseGuard(const PhaseGuard &) = delete;
    PhaseGuard &operator=(const PhaseGuard &) = delete;

private:
    pf_model_phase_peaks &record_;
    pf_phase phase_;
    torch::Device device_;
    int uncaught_;
    bool ended_ = false;
};
