/* param_count.h: a decoder's size, from its config alone (no libtorch,
 * no allocation), so that an absurd config is refused before anything is
 * built and `peakfit params` answers at once even for a 70B config. The
 * counts are exact: they agree with the tensors the shim builds
 * (tests/param_count_test.c checks every technique). */
#ifndef PEAKFIT_PARAM_COUNT_H
#define PEAKFIT_PARAM_COUNT_H
#include <stddef.h>
#include <stdint.h>
#include "core/model_config.h"

/* Embeddings, the position table (GPT-2), per layer the projections and
 * norms of pf_layer_projections / pf_layer_norms, the final norm, and the
 * output head unless it is tied to the embeddings. */
int64_t model_param_count(const pf_model_config *c);

/* LoRA adapters: rank * (in + out) per targeted projection per layer
 * (targets: PF_LORA_* bits; a fused projection is targeted by any part). */
int64_t model_lora_param_count(const pf_model_config *c, int rank, unsigned targets);

/* What the shim's model holds for options' technique, as
 * pf_model_stats_get reports it after a step: LoRA adds adapters and
 * trains only them; bf16 halves every tensor; the optimizer keeps its
 * moments per trainable weight (AdamW two, SGD one: optimizer_moments); load and inference train nothing. */
pf_model_stats model_footprint(const pf_model_config *c, const pf_train_options *options);

/* This machine's physical memory in bytes (0 when it cannot be read). */
int64_t machine_memory_bytes(void);

/* Returns 0 when the config's fp32 weights alone fit in memory_bytes, or
 * -1 with "N parameters need X GiB ..., more than this machine's Y GiB"
 * in why. */
int model_weights_fit(const pf_model_config *c, int64_t memory_bytes, char *why, size_t whylen);
#endif
