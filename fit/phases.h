/* phases.h: what the worker's per-phase peaks say about a point. They are
 * evidence beside the fit (fit/floor.h), not the test of which points lie
 * on the floor: the floor can be set late in backward (every gradient
 * live, activations nearly gone) as much as by the optimizer step, and the
 * two often tie. */
#ifndef PEAKFIT_PHASES_H
#define PEAKFIT_PHASES_H
#include "fit/observations.h"

/* Does o carry the three phases' peaks? */
int phases_known(const struct observation *o);
/* The phases' evidence of the floor: forward and backward reached no
 * higher than the optimizer step held (within PHASES_TIE_MIB: backward's
 * late temporaries tie with the step's). 0 without per-phase peaks. */
int phases_on_floor(const struct observation *o);
/* Per-phase peaks can differ by an allocator rounding: a tie is a tie. */
#define PHASES_TIE_MIB 0.5
/* The phase whose allocator-level peak was highest at o (the first of
 * equal ones), or -1 when o has no per-phase peaks. */
int phase_of_peak(const struct observation *o);
/* The shim's name of the phase ("forward", "backward", "optimizer"), "" for -1. */
const char *phase_name(int phase);
#endif
