/* fit_set.c: groups in order of their first row in peaks.csv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/depth_fit.h"
#include "fit/fit_set.h"
#include "fit/verify_runs.h"

/* The metrics in the order they are fitted: the allocator-level ones
 * first, as their exact counts place the floor for the others. */
static const enum metric fit_order[METRIC_COUNT] = {METRIC_TENSOR, METRIC_ALLOCATED, METRIC_RSS, METRIC_RESERVED};

/* Fits every metric of p's group unless that was done for an earlier row
 * (every ok row has an rss peak, so a group always has its rss fit; only
 * GPU rows have the allocated and reserved metrics), and adds them in
 * metric order; -1 when memory ran out. */
static int add_group(struct fit_set *set, const struct observation *p)
{
    struct group_key key;
    struct group_fit fits[METRIC_COUNT];
    int rc[METRIC_COUNT];
    group_key_of(p, &key);
    if (fit_set_find(set, &key, METRIC_RSS))
        return 0;
    for (int i = 0; i < METRIC_COUNT; i++) {
        enum metric m = fit_order[i], exact = metric_exact_for(m);
        const struct group_fit *hint = exact < METRIC_COUNT && rc[exact] == 0 ? &fits[exact] : NULL;
        rc[m] = group_fit_run_hinted(&set->obs, &key, m, hint, &fits[m]);
    }
    struct group_fit *more = realloc(set->groups, (size_t)(set->n_groups + METRIC_COUNT) * sizeof *set->groups);
    if (more)
        set->groups = more;
    int failed = !more;
    for (int m = 0; m < METRIC_COUNT; m++) {
        failed |= rc[m] == -2;
        if (rc[m] == 0 && more)
            set->groups[set->n_groups++] = fits[m];
        else
            group_fit_free(&fits[m]);
    }
    return failed ? -1 : 0;
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
    if (depth_fits_add(&set->obs, &set->groups, &set->n_groups) != 0) {
        snprintf(err, errlen, "%s: out of memory while fitting across depths", path);
        return -1;
    }
    return 0;
}

int fit_set_open(const char *dir, struct fit_set *set)
{
    char err[4400];
    if (fit_set_load(dir, set, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "peakfit: %s\n", err);
    fit_set_free(set); /* what the load made before it failed: no caller frees it then */
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
