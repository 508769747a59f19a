/* auto_slice_knee.h: where a slice's step rises above its floor, by
 * arithmetic, before anything runs, so that `peakfit auto --slices`
 * chooses its points above the knee from the start, at the depth where
 * they cost the least.
 *
 * Above its states (weights, gradients, optimizer state), a slice's
 * training step peaks at the largest of
 *   - the optimizer step's temporaries: AdamW one parameter at a time
 *     holds two tensors of the largest trainable one's size (Mistral-7B
 *     and Qwen2.5-0.5B: 2 x their embedding, 1000.0 and 1038.6 MiB at
 *     every depth), the floor;
 *   - backward at its start: everything forward left live plus the loss's
 *     gradient over the logits, less the gradients, not made yet (zero_grad
 *     none frees them after each step): -G + a*T, a the layer layout's
 *     activations per token with three copies of the logits
 *     (point/predict.h), G the gradients' bytes.
 * The knee is where the second reaches the first: T = (floor + G) / a.
 * The layout's a is below the measured one in the models measured
 * (Mistral-7B's 1-layer slice 0.686 against 0.765 MiB/token, Qwen2.5-0.5B's
 * 1.835 against 1.852), which puts the predicted knee past the real one:
 * the points chosen there are above it. */
#ifndef PEAKFIT_AUTO_SLICE_KNEE_H
#define PEAKFIT_AUTO_SLICE_KNEE_H
#include "core/attention.h"
#include "core/model_config.h"
#include "core/optimizer.h"

/* What one depth's knee rests on, in MiB and MiB/token. */
struct slice_knee {
    int depth;
    double floor_mib;           /* the optimizer step's temporaries above the states */
    double grads_mib;           /* the gradients not live at backward's start (0 with zero_grad zeros) */
    double line_mib_per_token;  /* backward's line: forward's activations plus the logits' gradient */
    double states_mib;          /* weights, gradients and optimizer state */
    double params;              /* what a token passes through here: the cost of a token */
};

/* The knee's token count: (floor + gradients) / the line's slope. */
double slice_knee_tokens(const struct slice_knee *k);
/* The smallest batch at seq_len predicted above the knee (its peak over
 * the floor by more than 1 %, so that a tie does not count). */
int slice_knee_batch(const struct slice_knee *k, int seq_len);
/* The peak above the states at b x seq_len tokens, by the same arithmetic. */
double slice_knee_peak_mib(const struct slice_knee *k, int batch, int seq_len);
/* Which of the n depths measures the step's rise at the least cost: the
 * tokens of its two points above the knee times the parameters they pass. */
int slice_knee_cheapest(const struct slice_knee *k, int n, int seq_len);
/* k for a slice's config (its depth applied) under options, zero_grad z,
 * attention and seq_len: 0, or -1 where the arithmetic does not know the
 * step (an optimizer other than AdamW one parameter at a time, a
 * technique that checkpoints or trains in bf16, one that does not train). */
int slice_knee_of(const pf_model_config *slice, const pf_train_options *options, pf_zero_grad z,
                  pf_attention attention, long seq_len, struct slice_knee *k);
#endif
