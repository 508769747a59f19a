/* fit_set.c: groups in order of their first row in peaks.csv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/fit_set.h"

static int seen_before(const struct observations *o, int i)
{
    const struct observation *p = &o->ok[i];
    for (int j = 0; j < i; j++) {
        const struct observation *q = &o->ok[j];
        if (!strcmp(p->model, q->model) && !strcmp(p->device, q->device) && !strcmp(p->technique, q->technique))
            return 1;
    }
    return 0;
}

int fit_set_load(const char *dir, struct fit_set *set, char *err, unsigned long errlen)
{
    char path[600];
    memset(set, 0, sizeof *set);
    snprintf(set->dir, sizeof set->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    if (observations_load(path, &set->obs, err, errlen) != 0)
        return -1;
    for (int i = 0; i < set->obs.n_ok; i++) {
        const struct observation *p = &set->obs.ok[i];
        if (strcmp(p->technique, "load") == 0 || seen_before(&set->obs, i))
            continue;
        for (int m = METRIC_RSS; m <= METRIC_TENSOR; m++) {
            set->groups = realloc(set->groups, (size_t)(set->n_groups + 1) * sizeof *set->groups);
            if (group_fit_run(&set->obs, p->model, p->device, p->technique, (enum metric)m,
                              &set->groups[set->n_groups]) == 0)
                set->n_groups++;
        }
    }
    return 0;
}

int fit_set_open(const char *dir, struct fit_set *set)
{
    char err[700];
    if (fit_set_load(dir, set, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "peakfit: %s\n", err);
    return -1;
}

void fit_set_free(struct fit_set *set)
{
    observations_free(&set->obs);
    free(set->groups);
    memset(set, 0, sizeof *set);
}

const struct group_fit *fit_set_find(const struct fit_set *set, const char *model,
                                     const char *technique, enum metric metric)
{
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (g->metric == metric && !strcmp(g->technique, technique) && (!model || !strcmp(g->model, model)))
            return g;
    }
    return NULL;
}
