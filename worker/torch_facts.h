/* torch_facts.h: what the libtorch behind peakfit-worker offers (its
 * version, CUDA compiled in, a device visible), asked of peakfit-worker
 * itself (`peakfit-worker --facts [KIND ...]`): peakfit does not load
 * libtorch (0.6 s and 165 MB per start with Debian's build) for commands
 * that never touch a tensor. */
#ifndef PEAKFIT_TORCH_FACTS_H
#define PEAKFIT_TORCH_FACTS_H
#include <stddef.h>

/* The lines peakfit-worker --facts prints, one fact each: "libtorch
 * 1.13.0", "cuda_compiled 0", and "available cuda 1" for each kind named. */
#define TORCH_FACTS_VERSION "libtorch"
#define TORCH_FACTS_CUDA "cuda_compiled"
#define TORCH_FACTS_AVAILABLE "available"
/* "refuses cpu adamw-fused WHY" for each optimizer the libtorch cannot run
 * on a kind named, WHY the shim's reason (pf_optimizer_check). */
#define TORCH_FACTS_REFUSES "refuses"

/* "1.13.0"; "unknown" (after saying why on stderr) when peakfit-worker
 * cannot be asked. */
const char *torch_facts_version(void);
/* 1 when peakfit-worker was built with CUDA. */
int torch_facts_cuda_compiled(void);
/* 1 when a device of this kind (cpu, cuda, mps) is there to use; cpu
 * always is. */
int torch_facts_device_available(const char *kind);
/* 1, with the reason in why, when this libtorch cannot run optimizer (a
 * name of core/optimizer.h) on a device of this kind; 0 when it can, or
 * when peakfit-worker cannot be asked (its point then says why). */
int torch_facts_optimizer_refused(const char *kind, const char *optimizer, char *why, size_t size);
#endif
