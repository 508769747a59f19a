/* technique.c: one table of names, read both ways. */
#include <stdio.h>
#include <string.h>
#include "sweeps/technique.h"
#include "util/parse.h"

static const char *const names[PF_TECH_COUNT] = {
    [PF_TECH_LOAD] = "load",
    [PF_TECH_INFERENCE] = "inference",
    [PF_TECH_FULL] = "full",
    [PF_TECH_FULL_CKPT] = "full+ckpt",
    [PF_TECH_BF16] = "bf16",
    [PF_TECH_LORA] = "lora",
    [PF_TECH_LORA_CKPT] = "lora+ckpt",
    [PF_TECH_AMP_BF16] = "amp-bf16",
};

static const char *const lora_names[] = {"q", "k", "v", "o", "gate", "up", "down"};
enum { LORA_NAME_COUNT = sizeof lora_names / sizeof lora_names[0] };

int technique_from_name(const char *name)
{
    for (int t = 0; t < PF_TECH_COUNT; t++)
        if (strcmp(name, names[t]) == 0)
            return t;
    return -1;
}

const char *technique_name(pf_technique t)
{
    return (t >= 0 && t < PF_TECH_COUNT) ? names[t] : "?";
}

const char *technique_names(void)
{
    return "load, inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16";
}

int technique_is_training(pf_technique t)
{
    return t != PF_TECH_LOAD && t != PF_TECH_INFERENCE;
}

unsigned lora_targets_from_list(const char *list)
{
    char copy[256];
    char *items[LORA_NAME_COUNT];
    if (strlen(list) >= sizeof copy)
        return 0;
    strcpy(copy, list);
    int n = split_list(copy, items, LORA_NAME_COUNT);
    unsigned bits = 0;
    for (int i = 0; i < n; i++) {
        int found = -1;
        for (int j = 0; j < LORA_NAME_COUNT; j++)
            if (strcmp(items[i], lora_names[j]) == 0)
                found = j;
        if (found < 0)
            return 0;
        bits |= 1u << found;
    }
    return n > 0 ? bits : 0;
}

void lora_targets_to_list(unsigned bits, char *buf, unsigned long size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < LORA_NAME_COUNT; j++)
        if (bits & (1u << j))
            used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s%s",
                                     used ? "," : "", lora_names[j]);
}
