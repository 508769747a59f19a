/* auto_slices.h: `peakfit auto --slices`: the model to measure, cut to
 * depths below its own, and what the fit across depths says of the whole
 * model when the rounds end (fit/depth_fit.h). */
#ifndef PEAKFIT_AUTO_SLICES_H
#define PEAKFIT_AUTO_SLICES_H
#include <stddef.h>
#include "autosweep/auto_sweep.h"
#include "models/model_spec.h"

/* Loads r->model_arg into spec. A model whose weights do not fit this
 * machine is measured in slices (r->slices set, and said on stderr); with
 * slices, r->depths are 1, 2 and 4 below the config's depth (at least
 * two of them); else one depth, 0. Settles r->points' default. Returns 0,
 * or -1 with the reason in err. */
int auto_load_model(struct auto_request *r, struct model_spec *spec, char *err, size_t errlen);
/* The most the states (weights, gradients, the optimizer's state, by
 * arithmetic) of r's techniques take at depth d, in MiB: what a slice
 * of that depth must find room for before it runs. */
double auto_slice_states_mib(const struct auto_request *r, const struct model_spec *spec, int d);
/* Prints, per technique, the whole model's A (r->metric's, and RSS's)
 * from the fit across the slices measured in r->dir. Returns an exit
 * status. */
int auto_slices_summary(const struct auto_request *r, const char *model, int depth);
#endif
