/* fit_set.c: groups in order of their first row in peaks.csv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/fit_set.h"
#include "fit/verify_runs.h"

/* Fits every metric of p's group unless that was done for an earlier row
 * (every ok row has an rss peak, so a group always has its rss fit; only
 * GPU rows have the allocated and reserved metrics); -1 when memory ran out. */
static int add_group(struct fit_set *set, const struct observation *p)
{
    struct group_key key;
    group_key_of(p, &key);
    if (fit_set_find(set, &key, METRIC_RSS))
        return 0;
    for (int m = METRIC_RSS; m < METRIC_COUNT; m++) {
        struct group_fit *more = realloc(set->groups, (size_t)(set->n_groups + 1) * sizeof *set->groups);
        if (!more)
            return -1;
        set->groups = more;
        struct group_fit *g = &set->groups[set->n_groups];
        int rc = group_fit_run(&set->obs, &key, (enum metric)m, g);
        if (rc == 0)
            set->n_groups++;
        else
            group_fit_free(g);
        if (rc == -2)
            return -1;
    }
    return 0;
}

int fit_set_load(const char *dir, struct fit_set *set, char *err, unsigned long errlen)
{
    char path[4200];
    memset(set, 0, sizeof *set);
    snprintf(set->dir, sizeof set->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    if (observations_load(path, &set->obs, err, errlen) != 0 || verify_runs_add(dir, &set->obs, err, errlen) != 0)
        return -1;
    for (int i = 0; i < set->obs.n_ok; i++) {
        const struct observation *p = &set->obs.ok[i];
        if (strcmp(p->technique, "load") == 0)
            continue;
        if (add_group(set, p) != 0) {
            snprintf(err, errlen, "%s: out of memory while fitting", path);
            return -1;
        }
    }
    return 0;
}

int fit_set_open(const char *dir, struct fit_set *set)
{
    char err[4400];
    if (fit_set_load(dir, set, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "peakfit: %s\n", err);
    return -1;
}

void fit_set_free(struct fit_set *set)
{
    observations_free(&set->obs);
    for (int i = 0; i < set->n_groups; i++)
        group_fit_free(&set->groups[i]);
    free(set->groups);
    memset(set, 0, sizeof *set);
}

const struct group_fit *fit_set_find(const struct fit_set *set, const struct group_key *key, enum metric metric)
{
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (g->metric == metric && group_key_compare(&g->key, key) == 0)
            return g;
    }
    return NULL;
}
