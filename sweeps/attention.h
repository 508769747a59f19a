/* attention.h: the names users write for attention implementations
 * (transformers' attn_implementation), read both ways. */
#ifndef PEAKFIT_ATTENTION_H
#define PEAKFIT_ATTENTION_H
#include "peakfit_torch.h"

/* Returns -1 for an unknown name. */
int attention_from_name(const char *name);
const char *attention_name(pf_attention a);
/* "sdpa, eager", for messages and the README. */
const char *attention_names(void);
#endif
