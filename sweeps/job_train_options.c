/* job_train_options.c: a point's axes and the training options the shim
 * and the arithmetic take (sweeps/job_train_options.h); the options a
 * group key stands for are its settings of training read back by their
 * sweep keys' own setters. */
#include <string.h>
#include "core/attention.h"
#include "core/technique.h"
#include "sweeps/job_train_options.h"
#include "sweeps/limits.h"

struct point_axes job_axes_first(const struct sweep_job *job)
{
#define FIRST(type, name) .name = job->name[0],
    return (struct point_axes){SETTING_AXES(FIRST)};
#undef FIRST
}

pf_train_options train_options_of(const struct point_axes *axes, pf_technique t, pf_attention a)
{
#define TRAIN_MEMBER(name, option) .name = axes->name,
    return (pf_train_options){.technique = t, .attention = a, .learning_rate = DEFAULT_LEARNING_RATE,
                              SETTING_TRAIN(TRAIN_MEMBER)};
#undef TRAIN_MEMBER
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
