/* phases.h: what the worker's per-phase peaks say about a point. They are
 * evidence beside the fit (fit/floor.h), not the test of which points lie
 * on the floor: the floor can be set late in backward (every gradient
 * live, activations nearly gone) as much as by the optimizer step, and the
 * two often tie. Each function reads one metric's per-phase peaks, ph
 * (PF_PHASE_COUNT entries: forward, backward, optimizer), as
 * metric_phases (fit/group.h) picks them; NULL: none measured it. */
#ifndef PEAKFIT_PHASES_H
#define PEAKFIT_PHASES_H
#include "core/phase.h"

/* Are the three phases' peaks known? */
int phases_known(const double *ph);
/* The phases' evidence of the floor: forward and backward reached no
 * higher than the optimizer step held (within PHASES_TIE_MIB: backward's
 * late temporaries tie with the step's). 0 without per-phase peaks. */
int phases_on_floor(const double *ph);
/* Per-phase peaks can differ by an allocator rounding: a tie is a tie. */
#define PHASES_TIE_MIB 0.5
/* The phase whose peak was highest (the first of equal ones), or -1
 * without per-phase peaks. */
int phase_of_peak(const double *ph);
/* The shim's name of the phase ("forward", "backward", "optimizer"), "" for -1. */
const char *phase_name(int phase);
#endif
