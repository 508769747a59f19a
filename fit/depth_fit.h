/* depth_fit.h: the whole model from slices of it (the `layers` setting).
 * A decoder's layers are copies of one another, so at a depth of L layers
 * and T tokens each phase of a step (forward, backward, optimizer: the
 * allocator-level per-phase peaks) holds
 *     y(L, T) = F0 + F1*L + (A0 + A1*L)*T
 * above the weights, gradients and AdamW state, which the parameter
 * arithmetic gives exactly at any depth. A step's peak is the largest of
 * its phases, so the fit keeps the floor per depth: the phase with the
 * steepest A is the line, the highest of the others the floor. Fitted to
 * points at two depths or more, extrapolated to the config's depth, it is
 * a group fit like any other (its key's layers field "30 (slices 1 2 4)"),
 * with the prediction interval of the extrapolation (the 4-coefficient
 * design's leverage at the full depth). It is the allocator level alone:
 * the heap's gap over it (RSS; on a GPU, reserved) is the whole model's,
 * which its slices do not hold. */
#ifndef PEAKFIT_DEPTH_FIT_H
#define PEAKFIT_DEPTH_FIT_H
#include "core/model_config.h"
#include "core/technique.h"
#include "fit/group_fit.h"
#include "fit/observations.h"

/* Depths and points a fit across depths needs at least: its four
 * coefficients and one residual (auto --slices on a 4-layer model: b = 1
 * and 2 at depths 1 and 2, one more above the knee at depth 1). */
enum { DEPTH_FIT_MIN_DEPTHS = 2, DEPTH_FIT_MIN_POINTS = 5 };

/* Adds to groups (n of them, realloc'ed), after the measured groups of
 * obs, a fit from slices for every
 * group of slices (keys alike but for layers) at DEPTH_FIT_MIN_DEPTHS
 * depths or more, of the allocator level alone (tensor; on a GPU,
 * allocated): RSS and reserved are not predicted from slices.
 * The whole model's own measured points, where the set has them, are its
 * held-out points. Returns 0, or -1 when memory ran out. */
int depth_fits_add(const struct observations *obs, struct group_fit **groups, int *n);
/* What backward's line holds over forward's per token: the loss's
 * gradient over the logits, vocabulary x 4 bytes (MiB/token), its
 * intercept 0; measured to 0.00001 MiB/token in SmolLM2-135M, GPT-2,
 * Qwen2.5-0.5B and Llama-3.2-1B LoRA (bench/results/slices-proof.md). */
double depth_logits_grad_mib(const pf_model_config *c);
/* Is that known for technique t: it trains in fp32 without checkpointing
 * (checkpointing adds a layer's recompute, bf16 logits are 2 bytes)? */
int depth_logits_grad_known(pf_technique t);
/* Is this key a slice's (layers a plain depth, not the config's, nor a fit from slices)? */
int depth_key_is_slice(const struct group_key *key);
#endif
