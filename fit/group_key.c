/* group_key.c: the group key's functions walk GROUP_KEY_FIELDS; the
 * training options a key stands for are its settings of training read
 * back by their sweep keys' own setters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/group_key.h"
#include "core/attention.h"
#include "core/optimizer.h"
#include "core/technique.h"
#include "sweeps/job_train_options.h"

void group_key_of(const struct observation *o, struct group_key *key)
{
#define COPY_FIELD(field, size, ...) snprintf(key->field, sizeof key->field, "%s", o->field);
    GROUP_KEY_ALL(COPY_FIELD)
#undef COPY_FIELD
}

int group_key_compare(const struct group_key *a, const struct group_key *b)
{
    int c;
#define COMPARE_FIELD(field, size, ...)                \
    if ((c = strcmp(a->field, b->field)) != 0)    \
        return c;
    GROUP_KEY_ALL(COMPARE_FIELD)
#undef COMPARE_FIELD
    return 0;
}

void group_key_text(const struct group_key *key, const char *sep, const char *between, char *out, size_t size)
{
    struct group_key shown = *key;
    char name[sizeof key->model];
    snprintf(shown.model, sizeof shown.model, "%s", model_display_name(key->model, name, sizeof name));
    size_t used = 0;
    out[0] = '\0';
#define FORMAT_FIELD(field, size_)                                                              \
    if (used < size)                                                                            \
        used += (size_t)snprintf(out + used, size - used, "%s%s", used ? sep : "", shown.field);
    GROUP_KEY_FIELDS(FORMAT_FIELD)
#undef FORMAT_FIELD
#define FORMAT_SETTING(field, size_, usual)                                                            \
    if (used < size && shown.field[0] && strcmp(shown.field, usual))                                  \
        used += (size_t)snprintf(out + used, size - used, "%s%s%s%s", sep, #field, between, shown.field);
    GROUP_KEY_SETTINGS(FORMAT_SETTING)
#undef FORMAT_SETTING
}

void group_key_format(const struct group_key *key, char *out, size_t size)
{
    group_key_text(key, " / ", " ", out, size);
}

static int ends_with(const char *text, const char *tail)
{
    size_t n = strlen(text), m = strlen(tail);
    return n >= m && strcmp(text + n - m, tail) == 0;
}

const char *model_display_name(const char *model, char *out, size_t size)
{
    if (!ends_with(model, ".json")) {
        snprintf(out, size, "%s", model);
        return out;
    }
    /* ".../FOLDER/config.json": FOLDER; a bare "config.json": itself. */
    const char *file = strrchr(model, '/');
    if (!file) {
        snprintf(out, size, "%s", model);
        return out;
    }
    const char *folder = file;
    while (folder > model && folder[-1] != '/')
        folder--;
    if (folder == file) /* "/config.json" */
        snprintf(out, size, "%s", model);
    else
        snprintf(out, size, "%.*s", (int)(file - folder), folder);
    return out;
}

int model_matches(const char *model, const char *wanted)
{
    char name[4096];
    return strcmp(model, wanted) == 0 || strcmp(model_display_name(model, name, sizeof name), wanted) == 0;
}

/* The attention named, or sdpa (the default) for a name it does not know. */
static pf_attention attention_of(const char *name)
{
    for (int a = 0; a < PF_ATTN_COUNT; a++)
        if (!strcmp(attention_name((pf_attention)a), name))
            return (pf_attention)a;
    return PF_ATTN_SDPA;
}

pf_train_options group_key_train_options(const struct group_key *key)
{
    struct sweep_job job;
    char err[256];
    sweep_job_defaults(&job);
    /* Each setting of training as its column holds it; an empty one (a
     * technique without it, a file from before its column) keeps its default. */
#define SET_TRAIN(name, option)                                                                                  \
    if (key->name[0])                                                                                      \
        (void)sweep_set(NULL, &job, #name, key->name, err, sizeof err);
    SETTING_TRAIN(SET_TRAIN)
#undef SET_TRAIN
    int t = technique_from_name(key->technique);
    struct point_axes axes = job_axes_first(&job);
    return train_options_of(&axes, t < 0 ? PF_TECH_FULL : (pf_technique)t, attention_of(key->attention));
}
