/* torch_facts.h: what the libtorch behind peakfit-worker offers (its
 * version, CUDA compiled in, a device visible), asked of peakfit-worker
 * itself (`peakfit-worker --facts [KIND ...]`): peakfit does not load
 * libtorch (0.6 s and 165 MB per start with Debian's build) for commands
 * that never touch a tensor. */
#ifndef PEAKFIT_TORCH_FACTS_H
#define PEAKFIT_TORCH_FACTS_H

/* The lines peakfit-worker --facts prints, one fact each: "libtorch
 * 1.13.0", "cuda_compiled 0", and "available cuda 1" for each kind named. */
#define TORCH_FACTS_VERSION "libtorch"
#define TORCH_FACTS_CUDA "cuda_compiled"
#define TORCH_FACTS_AVAILABLE "available"

/* "1.13.0"; "unknown" (after saying why on stderr) when peakfit-worker
 * cannot be asked. */
const char *torch_facts_version(void);
/* 1 when peakfit-worker was built with CUDA. */
int torch_facts_cuda_compiled(void);
/* 1 when a device of this kind (cpu, cuda, mps) is there to use; cpu
 * always is. */
int torch_facts_device_available(const char *kind);
#endif
