/* technique.c: names and properties read off PF_TECHNIQUES; LoRA target names. */
#include <stdio.h>
#include <string.h>
#include "core/technique.h"
#include "util/name_list.h"
#include "util/options.h"
#include "util/parse.h"

static const char *const lora_names[] = {"q", "k", "v", "o", "gate", "up", "down"};
enum { LORA_NAME_COUNT = sizeof lora_names / sizeof lora_names[0] };

int technique_from_name(const char *name)
{
    for (int t = 0; t < PF_TECH_COUNT; t++)
        if (strcmp(name, technique_name((pf_technique)t)) == 0)
            return t;
    return -1;
}

/* The labels this process has read, numbered from PF_TECH_COUNT. */
static char labels[TECHNIQUE_LABELS_MAX][TECHNIQUE_LABEL_LEN];
static int n_labels;

int technique_label(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= TECHNIQUE_LABEL_LEN || technique_from_name(name) >= 0 ||
        strspn(name, SAFE_NAME_CHARS) != n)
        return -1;
    for (int i = 0; i < n_labels; i++)
        if (strcmp(labels[i], name) == 0)
            return PF_TECH_COUNT + i;
    if (n_labels == TECHNIQUE_LABELS_MAX)
        return -1;
    snprintf(labels[n_labels], TECHNIQUE_LABEL_LEN, "%s", name);
    return PF_TECH_COUNT + n_labels++;
}

int technique_is_label(pf_technique t) { return (int)t >= PF_TECH_COUNT && (int)t < PF_TECH_COUNT + n_labels; }

const char *technique_name(pf_technique t)
{
    return technique_is_label(t) ? labels[t - PF_TECH_COUNT] : pf_technique_info_of(t)->name;
}
int technique_runs_steps(pf_technique t) { return technique_is_label(t) || pf_technique_info_of(t)->steps; }
int technique_is_training(pf_technique t) { return pf_technique_info_of(t)->training; }
int technique_is_lora(pf_technique t) { return pf_technique_info_of(t)->lora; }
int technique_is_checkpointed(pf_technique t) { return pf_technique_info_of(t)->checkpoint; }

static const char *technique_name_at(int i) { return technique_name((pf_technique)i); }
static int runs_steps_at(int i) { return technique_runs_steps((pf_technique)i); }

const struct opt_names technique_option_names = {technique_name_at, PF_TECH_COUNT, NULL, NULL};
const struct opt_names stepping_technique_option_names = {technique_name_at, PF_TECH_COUNT, runs_steps_at, NULL};
static const char *lora_name_at(int i) { return lora_names[i]; }

const char *technique_names(void)
{
    static char text[256];
    return text[0] ? text : names_joined(text, sizeof text, technique_name_at, PF_TECH_COUNT);
}

const char *lora_target_names(void)
{
    static char text[128];
    return text[0] ? text : names_joined(text, sizeof text, lora_name_at, LORA_NAME_COUNT);
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

int lora_targets_option_set(const struct opt_row *row, const char *display, const char *value, void *target,
                            void *ctx, char *why, size_t size)
{
    (void)ctx;
    unsigned bits = lora_targets_from_list(value);
    if (!bits) {
        snprintf(why, size, "%s must list some of %s, not \"%s\"", display, lora_target_names(), value);
        return -1;
    }
    *(unsigned *)((char *)target + row->off) = bits;
    return 0;
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
