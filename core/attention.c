/* attention.c: one table of names, in pf_attention's order. */
#include <string.h>
#include "core/attention.h"

static const char *const names[PF_ATTN_COUNT] = {[PF_ATTN_SDPA] = "sdpa", [PF_ATTN_EAGER] = "eager"};

int attention_from_name(const char *name)
{
    for (int a = 0; a < PF_ATTN_COUNT; a++)
        if (strcmp(name, names[a]) == 0)
            return a;
    return -1;
}

const char *attention_name(pf_attention a) { return (int)a >= 0 && a < PF_ATTN_COUNT ? names[a] : "?"; }

const char *attention_names(void) { return "sdpa, eager"; }
