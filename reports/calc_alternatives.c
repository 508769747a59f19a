/* calc_alternatives.c: what would fit where a training plan does not
 * (reports/calc_alternatives.h). */
#include <stdio.h>
#include <string.h>
#include "core/technique.h"
#include "fit/depth_fit.h"
#include "reports/calc_alternatives.h"
#include "util/term_text.h"

/* Does any group of technique t hold axis a's value in k? */
static int held_with(const struct fit_set *set, const char *t, const struct group_key *k, int a)
{
    for (int i = 0; i < set->n_groups; i++)
        if (!strcmp(set->groups[i].key.technique, t) &&
            !strcmp(group_axis_value(&set->groups[i].key, a), group_axis_value(k, a)))
            return 1;
    return 0;
}

/* A request for what p's fit holds on every axis that technique t's
 * groups hold too (the model, device, attention, optimizer...: no choice
 * is left open that p's fit settled; a setting of p's technique alone,
 * LoRA's rank say, is t's to choose), with technique t, replicas and zero
 * as given, and the batch left to calc: the largest that fits (no target
 * batch to round it down to). */
static struct calc_request alike(const struct fit_set *set, const struct calc_request *req,
                                 const struct calc_plan *p, const char *t, long replicas, long zero)
{
    struct calc_request r = *req;
    const struct group_key *k = &p->fit->key;
    group_choice_of_key(&r.choice, k);
    for (int a = 0; a < GROUP_AXIS_COUNT; a++)
        if (r.choice.want[a] && !held_with(set, t, k, a))
            r.choice.want[a] = NULL;
    /* A calibrated plan's fit is the worker's: calibrated by the same
     * command (where it measured technique t too). */
    if (p->calibration.command)
        r.choice.want[GROUP_AXIS_measured_by] = p->calibration.command->key.measured_by;
    r.technique = t;
    r.replicas = replicas;
    r.zero = zero;
    r.micro_batch = r.accum = r.target_batch = 0;
    r.json = 0;
    return r;
}

/* Adds the plan of r (alike's) to out where it fits b = 1 within its
 * interval: the largest micro-batch that does, and its predicted peak. */
static int try_plan(const struct fit_set *set, const struct calc_request *r, struct calc_alternative *out)
{
    struct calc_plan q;
    char err[1024];
    if (calc_plan_make(set, r, &q, err, sizeof err) != 0 || q.max_micro_batch < 1)
        return 0;
    snprintf(out->technique, sizeof out->technique, "%s", r->technique);
    out->replicas = r->replicas;
    out->zero = r->zero;
    out->micro_batch = q.max_micro_batch;
    out->predicted_mib = q.predicted_mib;
    out->ci95_mib = q.predicted_ci95_mib;
    return 1;
}

/* The model's config for ZeRO-3's units: --config, else the source its
 * points were measured from (a config path, or a preset's name). */
static const char *config_of(const struct fit_set *set, const struct calc_request *req, const struct group_key *k)
{
    if (req->config)
        return req->config;
    for (int i = 0; i < set->obs.n_ok; i++)
        if (!strcmp(set->obs.ok[i].model, k->model) && set->obs.ok[i].model_source[0])
            return set->obs.ok[i].model_source;
    return NULL;
}

/* Each other technique fitted for p's model, once. */
static int other_techniques(const struct fit_set *set, const struct calc_request *req, const struct calc_plan *p,
                            struct calc_alternative *out, int n)
{
    const struct group_key *k = &p->fit->key;
    for (int i = 0; i < set->n_groups && n < CALC_ALTERNATIVES_MAX - 1; i++) {
        const struct group_fit *g = &set->groups[i];
        int t = technique_from_name(g->key.technique);
        int seen = (t >= 0 && !technique_is_training((pf_technique)t)) || /* inference trains nothing */
                   !strcmp(g->key.technique, k->technique) || g->metric != p->fit->metric ||
                   strcmp(g->key.model, k->model) || depth_key_is_slice(&g->key);
        for (int j = 0; j < n && !seen; j++)
            seen = !strcmp(out[j].technique, g->key.technique);
        if (seen)
            continue;
        struct calc_request r = alike(set, req, p, g->key.technique, req->replicas, req->zero);
        n += try_plan(set, &r, &out[n]);
    }
    return n;
}

/* The alternatives to plan p of req into out; returns how many. */
static int alternatives_find(const struct fit_set *set, const struct calc_request *req, const struct calc_plan *p,
                             struct calc_alternative *out)
{
    int n = other_techniques(set, req, p, out, 0);
    const struct group_key *k = &p->fit->key;
    for (long g = 2; g <= CALC_ALTERNATIVE_REPLICAS_MAX; g *= 2) {
        if (req->zero == 3 && g <= req->replicas)
            continue;
        struct calc_request r = alike(set, req, p, k->technique, g, 3);
        r.config = config_of(set, req, k);
        if (try_plan(set, &r, &out[n]))
            return n + 1;
    }
    return n;
}

void calc_alternatives_print(const struct fit_set *set, const struct calc_request *req, const struct calc_plan *p)
{
    struct calc_alternative a[CALC_ALTERNATIVES_MAX];
    if (!p->training || p->max_micro_batch >= 1)
        return;
    int n = alternatives_find(set, req, p, a);
    if (n == 0) {
        printf("  what would fit in %.0f MiB: no other technique measured here, nor ZeRO-3 over up to %d "
               "replicas\n", req->budget_mib, CALC_ALTERNATIVE_REPLICAS_MAX);
        return;
    }
    printf("  what would fit in %.0f MiB (the largest micro-batch of each; `peakfit calc` with these options "
           "plans it):\n", req->budget_mib);
    for (int i = 0; i < n; i++) {
        char technique[4 * sizeof a[i].technique]; /* fit.json's: through the terminal's escaper */
        printf("    --technique %s", term_text(a[i].technique, technique, sizeof technique));
        if (a[i].replicas > 1)
            printf(" --replicas %ld", a[i].replicas);
        if (a[i].zero > 0)
            printf(" --zero %ld", a[i].zero);
        printf(": micro-batch b = %ld, predicted peak %.1f MiB +- %.1f\n", a[i].micro_batch, a[i].predicted_mib,
               a[i].ci95_mib);
    }
}
