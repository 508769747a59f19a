/* optimizer.h: the optimizer a training step runs and what zero_grad does
 * with the gradients, each written once (PF_OPTIMIZERS, PF_ZERO_GRADS):
 * the enums, the names users write and each choice's properties come from
 * these rows; the shim runs them (shim/optimizer.cpp). */
#ifndef PEAKFIT_OPTIMIZER_H
#define PEAKFIT_OPTIMIZER_H

/* X(ID, name, moments, help): moments is the state tensors the size of a
 * trainable weight it keeps (AdamW's exp_avg and exp_avg_sq, SGD's
 * momentum buffer); auto keeps what the choice it resolves to keeps. */
#define PF_OPTIMIZERS(X)                                                                                           \
    X(AUTO, "auto", 2, "what torch.optim.AdamW(params) picks for the device: adamw-foreach on cuda, adamw "      \
                       "elsewhere")                                                                              \
    X(ADAMW, "adamw", 2, "AdamW one parameter at a time (libtorch's; PyTorch's own on CPU)")                     \
    X(ADAMW_FOREACH, "adamw-foreach", 2, "AdamW over all parameters at once with PyTorch's _foreach_* ops "       \
                                         "(torch.optim.AdamW's default for CUDA tensors)")                       \
    X(ADAMW_FUSED, "adamw-fused", 2, "AdamW as one _fused_adamw_ (fused=True: transformers' Trainer default on "  \
                                     "torch >= 2.8; libtorch >= 2.4 on cpu, 2.1 on cuda)")                      \
    X(SGD, "sgd", 1, "SGD with momentum 0.9, one parameter at a time")

typedef enum {
#define PF_OPTIMIZER_ENUM_(id, name, moments, help) PF_OPT_##id,
    PF_OPTIMIZERS(PF_OPTIMIZER_ENUM_)
#undef PF_OPTIMIZER_ENUM_
    PF_OPT_COUNT
} pf_optimizer;

/* X(ID, name, help): what the step leaves in each .grad for the next one. */
#define PF_ZERO_GRADS(X)                                                                                           \
    X(NONE, "none", "gradients freed after the step (zero_grad(set_to_none=True), PyTorch 2's default)")         \
    X(ZEROS, "zeros", "gradients kept and zeroed in place (zero_grad(set_to_none=False)): they live through "     \
                      "the next forward")

typedef enum {
#define PF_ZERO_GRAD_ENUM_(id, name, help) PF_ZERO_GRAD_##id,
    PF_ZERO_GRADS(PF_ZERO_GRAD_ENUM_)
#undef PF_ZERO_GRAD_ENUM_
    PF_ZERO_GRAD_COUNT
} pf_zero_grad;

#ifdef __cplusplus
extern "C" {
#endif
/* Names both ways; -1 for an unknown name, "?" for an unknown value. */
int optimizer_from_name(const char *name);
const char *optimizer_name(pf_optimizer o);
int zero_grad_from_name(const char *name);
const char *zero_grad_name(pf_zero_grad z);
/* State tensors the size of a trainable weight (PF_OPTIMIZERS' moments). */
int optimizer_moments(pf_optimizer o);
/* What auto is on device (torch.optim.AdamW's own choice: its
 * multi-tensor form for CUDA tensors, one parameter at a time elsewhere);
 * any other choice is itself. */
pf_optimizer optimizer_resolved(pf_optimizer o, const char *device);
/* The names for option rows (util/options.h). */
extern const struct opt_names optimizer_option_names;
extern const struct opt_names zero_grad_option_names;
#ifdef __cplusplus
}
#endif
#endif
