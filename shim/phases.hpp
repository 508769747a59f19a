// phases.hpp: marking the phases of a step (forward, backward, optimizer)
// so each one's peak and its end RSS are recorded in pf_model::phases.
#pragma once
#include "model.hpp"

// The counting allocator's peak since the last reset (counting_allocator.cpp).
int64_t pf_phase_peak_bytes();
void pf_phase_peak_reset();

// A phase starts: its peak counts from the bytes live now.
inline void phase_begin() { pf_phase_peak_reset(); }
// The phase that began last ends: its peak and the RSS now are recorded,
// and the next phase counts from here.
void phase_end(pf_model &m, pf_phase phase);
