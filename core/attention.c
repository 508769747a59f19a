/* attention.c: one table of names, in pf_attention's order. */
#include <string.h>
#include "core/attention.h"
#include "util/options.h"

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

static const char *attention_name_at(int i) { return names[i]; }
const struct opt_names attention_option_names = {attention_name_at, PF_ATTN_COUNT, NULL, NULL};
