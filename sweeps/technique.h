/* technique.h: the names users write for techniques and LoRA targets, and
 * each technique's properties, all read off shim/peakfit_torch.h's
 * PF_TECHNIQUES table: no file tests a technique by its name. */
#ifndef PEAKFIT_TECHNIQUE_H
#define PEAKFIT_TECHNIQUE_H
#include "peakfit_torch.h"

/* Returns -1 for an unknown name. */
int technique_from_name(const char *name);
const char *technique_name(pf_technique t);
/* "load, inference, full, ..." for error messages, built from the table. */
const char *technique_names(void);

/* It runs steps on batch x seq_len tokens (load only builds the model). */
int technique_runs_steps(pf_technique t);
/* Backward and an optimizer step. */
int technique_is_training(pf_technique t);
/* Adapters on a frozen base: lora_rank and lora_targets apply. */
int technique_is_lora(pf_technique t);
int technique_is_checkpointed(pf_technique t);

/* "q,v" -> PF_LORA_Q | PF_LORA_V; 0 when a name is unknown. */
unsigned lora_targets_from_list(const char *list);
/* Writes "q,v" for the bits into buf. */
void lora_targets_to_list(unsigned bits, char *buf, unsigned long size);
/* "q, k, v, o, gate, up, down", for messages. */
const char *lora_target_names(void);
#endif
