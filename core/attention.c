/* attention.c: one table of names, in pf_attention's order. */
#include "core/attention.h"
#include "util/options.h"

static const char *const names[PF_ATTN_COUNT] = {[PF_ATTN_SDPA] = "sdpa", [PF_ATTN_EAGER] = "eager"};

const char *attention_name(pf_attention a) { return (int)a >= 0 && a < PF_ATTN_COUNT ? names[a] : "?"; }

static const char *attention_name_at(int i) { return names[i]; }
const struct opt_names attention_option_names = {attention_name_at, PF_ATTN_COUNT, NULL, NULL};
