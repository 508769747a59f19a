/* technique.h: the names users write for techniques and LoRA targets. */
#ifndef PEAKFIT_TECHNIQUE_H
#define PEAKFIT_TECHNIQUE_H
#include "peakfit_torch.h"

/* Returns -1 for an unknown name. */
int technique_from_name(const char *name);
const char *technique_name(pf_technique t);
/* "inference, full, ..." for error messages. */
const char *technique_names(void);
int technique_is_training(pf_technique t);

/* "q,v" -> PF_LORA_Q | PF_LORA_V; 0 when a name is unknown. */
unsigned lora_targets_from_list(const char *list);
/* Writes "q,v" for the bits into buf. */
void lora_targets_to_list(unsigned bits, char *buf, unsigned long size);
#endif
