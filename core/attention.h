/* attention.h: the names users write for attention implementations
 * (transformers' attn_implementation), read both ways. */
#ifndef PEAKFIT_ATTENTION_H
#define PEAKFIT_ATTENTION_H

/* How attention keeps what backward needs (transformers' attn_implementation). */
typedef enum {
    PF_ATTN_SDPA = 0,    /* output and logsumexp only, as PyTorch 2's fused kernels (the default) */
    PF_ATTN_EAGER,       /* the [b, heads, s, s] probabilities are kept */
    PF_ATTN_COUNT
} pf_attention;

const char *attention_name(pf_attention a);
/* The names for an option row (util/options.h). */
extern const struct opt_names attention_option_names;
#endif
