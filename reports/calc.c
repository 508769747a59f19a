/* calc.c: the planning arithmetic. Predictions use the rss fit (what the
 * OS sees) plus the measured baseline, so the budget is the whole process;
 * on a GPU, the reserved fit plus the context, so the budget is the device. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "fit/depth_fit.h"
#include "reports/calc.h"
#include "reports/hardware_here.h"
#include "reports/process_term.h"
#include "core/technique.h"
#include "util/name_list.h"
#include "util/near_name.h"

/* The choices a request may have to make: every axis of the group key
 * (fit/group_choice.h) but technique, which the request names itself.
 * Each must be named when there are several, and the message lists them. */
static int axis_matches(const struct group_fit *g, const struct calc_request *r, int axis)
{
    return axis == GROUP_AXIS_technique || group_axis_matches(&g->key, &r->choice, axis);
}

enum metric calc_metric(const struct fit_set *set, const struct group_key *key)
{
    return fit_set_find(set, key, METRIC_RESERVED) ? METRIC_RESERVED : METRIC_RSS;
}

/* The fit a request plans with: the one --metric names, else calc_metric's. */
static enum metric planning_metric(const struct fit_set *set, const struct group_key *key, const struct calc_request *r)
{
    for (int m = 0; r->metric && m < METRIC_COUNT; m++)
        if (!strcmp(metric_name((enum metric)m), r->metric))
            return (enum metric)m;
    return calc_metric(set, key);
}

/* Is this the planning fit (planning_metric) of the requested technique,
 * matching what was asked on the axes before `upto`? */
static int candidate(const struct fit_set *set, const struct group_fit *g, const struct calc_request *r, int upto)
{
    /* A slice is no plan; the whole model's fit from slices is. */
    if (g->metric != planning_metric(set, &g->key, r) || strcmp(g->key.technique, r->technique) ||
        depth_key_is_slice(&g->key))
        return 0;
    /* A plan calibrated by a command is the worker's fit, whatever the
     * command's settings: the calibration says where they differ. */
    if (r->process == PROCESS_COMMAND && strcmp(g->key.measured_by, "worker"))
        return 0;
    for (int a = 0; a < upto; a++)
        if (!axis_matches(g, r, a))
            return 0;
    return 1;
}

static int any_candidate(const struct fit_set *set, const struct calc_request *r, int upto)
{
    for (int i = 0; i < set->n_groups; i++)
        if (candidate(set, &set->groups[i], r, upto))
            return 1;
    return 0;
}

/* The distinct values of an axis among the candidates matching the axes
 * before it, as "a, b" in out; returns how many there are. */
static int choices(const struct fit_set *set, const struct calc_request *r, int axis, char *out, size_t size)
{
    struct name_list l;
    name_list_start(&l, out, size);
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = candidate(set, &set->groups[j], r, axis) &&
                   !strcmp(group_axis_value(&set->groups[j].key, axis), group_axis_value(&g->key, axis));
        if (seen || !candidate(set, g, r, axis))
            continue;
        char name[256];
        name_list_add(&l, group_axis_shown(&g->key, axis, name, sizeof name));
    }
    return l.n;
}

/* The techniques DIR fitted, and after them the one most likely meant
 * ("; did you mean full?"): a technique may be a command job's label, so
 * a misspelt one is found here, not by the option. */
static const char *techniques_fitted(const struct fit_set *set, const char *wanted, char *out, size_t size)
{
    struct name_list l;
    struct near_name near;
    name_list_start(&l, out, size);
    near_name_start(&near, wanted);
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (g->metric != METRIC_RSS || name_list_has(&l, g->key.technique))
            continue;
        name_list_add(&l, g->key.technique);
        near_name_offer(&near, g->key.technique);
    }
    const char *best = near_name_best(&near);
    size_t used = strlen(out);
    if (best)
        snprintf(out + used, size - used, "); did you mean %s?", best);
    else
        snprintf(out + used, size - used, ")");
    return out;
}

/* Does DIR fit technique r asks for from slices alone, and so at the
 * allocator level only (fit/depth_fit.h)? */
static int from_slices_only(const struct fit_set *set, const struct calc_request *r)
{
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].from_slices && !strcmp(set->groups[i].key.technique, r->technique))
            return 1;
    return 0;
}

/* Is the worker's group among the candidates that match the axes before
 * `upto`? Beside a command's, it can be calibrated by the command's points. */
static int worker_among(const struct fit_set *set, const struct calc_request *r, int upto)
{
    for (int i = 0; i < set->n_groups; i++)
        if (candidate(set, &set->groups[i], r, upto) && !strcmp(set->groups[i].key.measured_by, "worker"))
            return 1;
    return 0;
}

static int check_choices(const struct fit_set *set, const struct calc_request *r, char *err, unsigned long errlen)
{
    char list[1024], techniques[512];
    if (!any_candidate(set, r, 0)) {
        if (from_slices_only(set, r))
            snprintf(err, errlen, "%s: the whole model's fit for technique %s comes from slices, at the allocator "
                     "level only: RSS is not predicted from slices (the whole model's heap is not in them); plan for "
                     "a GPU at the allocator level (calc --metric tensor), or measure the whole model", set->dir,
                     r->technique);
        else
            snprintf(err, errlen, "%s: no fit for technique %s (fitted: %s", set->dir, r->technique,
                     techniques_fitted(set, r->technique, techniques, sizeof techniques));
        return -1;
    }
    for (int a = 0; a < GROUP_AXIS_COUNT; a++) {
        if (a == GROUP_AXIS_technique)
            continue;
        const char *what = group_axis_field(a), *w = r->choice.want[a];
        int n = choices(set, r, a, list, sizeof list);
        if (w && !any_candidate(set, r, a + 1)) {
            snprintf(err, errlen, "%s: no %s \"%s\" with technique %s (%ss: %.900s)", set->dir, what, w,
                     r->technique, what, list);
            return -1;
        }
        if (!w && n > 1) {
            snprintf(err, errlen, "%s holds more than one %s with technique %s: choose one with --%s (%ss: %.900s)%s",
                     set->dir, what, r->technique, group_axis_option(a), what, list,
                     a == GROUP_AXIS_measured_by && worker_among(set, r, a)
                         ? ", or plan with the worker's fit calibrated by the command's points: --process command" : "");
            return -1;
        }
    }
    return 0;
}

static const struct group_fit *find_fit(const struct fit_set *set, const struct calc_request *req,
                                        char *err, unsigned long errlen)
{
    if (check_choices(set, req, err, errlen) != 0)
        return NULL;
    const struct group_fit *g = NULL;
    for (int i = 0; i < set->n_groups && !g; i++)
        if (candidate(set, &set->groups[i], req, GROUP_AXIS_COUNT))
            g = &set->groups[i];
    char key[400];
    if (g)
        group_key_format(&g->key, key, sizeof key);
    if (g && !group_chosen(g)) {
        snprintf(err, errlen, "%s: %s cannot be fitted (%s)", set->dir, key, g->reason);
        return NULL;
    }
    if (g && !(group_chosen(g)->c[1] > 0)) {
        snprintf(err, errlen, "%s: %s: A = %.4g MiB/token: a fit whose peak does not grow with tokens cannot "
                 "bound the batch; measure more points above the knee", set->dir, key, group_chosen(g)->c[1]);
        return NULL;
    }
    if (!g)
        snprintf(err, errlen, "%s: no fit for technique %s", set->dir, req->technique);
    return g;
}

static const struct { const char *words; int exit_status; } outcomes[] = {
#define PLAN_OUTCOME_ROW(e, words, status) {words, status},
    PLAN_OUTCOMES(PLAN_OUTCOME_ROW)
#undef PLAN_OUTCOME_ROW
};

const char *plan_outcome_words(enum plan_outcome o) { return outcomes[o].words; }
int plan_outcome_exit(enum plan_outcome o) { return outcomes[o].exit_status; }

/* The predicted peak of one replica, baseline included, at b: its
 * estimate, or with upper the upper end of its 95% prediction interval
 * (infinite when there is no interval: nothing is known to fit). */
static double peak_at(const struct calc_plan *p, long b, int upper)
{
    double pi;
    double s = (double)p->seq_len, y = group_predict(p->fit, (double)b, s, &pi);
    double worker = y + replica_shift_at(&p->shift, p->fit, (double)b, s);
    double peak = p->fit->baseline_mib + worker + process_term_at(p->process, worker);
    pi = process_term_pi95(p->process, worker, p->other_machine ? group_other_machine_pi95(p->fit, y, pi) : pi);
    return !upper ? peak : isfinite(pi) ? peak + pi : INFINITY;
}

static long largest_at_estimate(const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    double per_sample = group_per_sample(g, p->seq_len);
    /* the worker's peak above its baseline at which the plan's process reaches the usable budget */
    double limit = process_term_worker_limit(p->process, p->usable_mib - g->baseline_mib);
    double room = limit - p->fixed_per_replica_mib;
    if (per_sample <= 0)
        return 0; /* a fit whose peak does not grow with batch cannot bound it */
    if (g->floor.found && floor_at(&g->floor, p->seq_len) + p->shift.floor_mib > limit)
        return 0; /* the floor alone is over */
    double b = floor(room / per_sample);
    return b >= 1 ? (long)fmin(b, 1e9) : 0;
}

/* The largest b <= hi whose interval's upper end fits. Above the
 * measured points the upper end grows with b, but a prediction interval
 * is wider at either end of the data: below them a smaller b can be over
 * the budget where a larger one is not (b = 1 over and b = 2 within).
 * So from the smallest b that fits (looked for one by one among the
 * first ones), by bisection above it. */
enum { SMALLEST_FITTING_SCAN = 4096 };
static long largest_within_interval(const struct calc_plan *p, long hi)
{
    long lo = 0;
    for (long b = 1; b <= hi && b <= SMALLEST_FITTING_SCAN && !lo; b++)
        if (peak_at(p, b, 1) <= p->usable_mib)
            lo = b;
    while (lo > 0 && lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (peak_at(p, mid, 1) <= p->usable_mib)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

long calc_choose_micro_batch(long max_b, long target, long replicas)
{
    if (max_b <= 0)
        return 1;
    if (target <= 0)
        return max_b;
    long per_replica = (target + replicas - 1) / replicas;
    if (per_replica <= max_b)
        return per_replica;
    for (long b = max_b; b >= (max_b + 1) / 2; b--)
        if (target % (b * replicas) == 0)
            return b;
    return max_b;
}

long calc_accum_steps(long micro_batch, long replicas, long target, long accum)
{
    long per_step = micro_batch * replicas;
    return accum > 0 ? accum : target > 0 ? (target + per_step - 1) / per_step : 1;
}

static enum plan_outcome judge(const struct calc_plan *p)
{
    if (peak_at(p, p->micro_batch, 1) <= p->usable_mib)
        return p->fit->n_above < GROUP_FIT_ABOVE_MIN ? PLAN_FITS_ON_TOO_FEW : PLAN_FITS;
    return peak_at(p, p->micro_batch, 0) <= p->usable_mib ? PLAN_FITS_AT_ESTIMATE : PLAN_DOES_NOT_FIT;
}

static void evaluate(struct calc_plan *p, long replicas)
{
    const struct group_fit *g = p->fit;
    int s_max = g->seq_lens[g->n_seq - 1];
    p->effective_batch = p->micro_batch * p->accum * replicas;
    p->predicted_mib = peak_at(p, p->micro_batch, 0);
    double y = group_predict(g, (double)p->micro_batch, p->seq_len, &p->predicted_ci95_mib);
    if (p->other_machine)
        p->predicted_ci95_mib = group_other_machine_pi95(g, y, p->predicted_ci95_mib);
    double worker = y + replica_shift_at(&p->shift, g, (double)p->micro_batch, (double)p->seq_len);
    p->predicted_ci95_mib = process_term_pi95(p->process, worker, p->predicted_ci95_mib);
    p->process_term_mib = process_term_at(p->process, worker);
    p->process_worker_mib = worker;
    p->activation_mib = (double)p->micro_batch * p->per_sample_mib;
    p->outcome = judge(p);
    p->fits = p->outcome == PLAN_FITS;
    double b = (double)p->micro_batch; /* a fit.json may say batch_max = 2^30: no int arithmetic */
    p->extrapolated = b > g->max_batch || p->seq_len > s_max || p->seq_len < g->seq_lens[0];
    p->linear_seq_len_beyond = p->seq_len > s_max && group_chosen(g)->p < 3;
    p->far_extrapolated = b > (double)CALC_FAR_FACTOR * g->max_batch || p->seq_len > (double)CALC_FAR_FACTOR * s_max;
    p->past_tokens = b * (double)p->seq_len > CALC_EXTRAPOLATION_FACTOR * g->max_tokens;
    p->floor_binds = group_floor_binds(g, b, (double)p->seq_len);
}

static int is_training(const char *technique)
{
    int t = technique_from_name(technique);
    return t < 0 || technique_is_training((pf_technique)t); /* a command job's label: a step, as its warm */
}

int calc_plan_make(const struct fit_set *set, const struct calc_request *req, struct calc_plan *p,
                   char *err, unsigned long errlen)
{
    memset(p, 0, sizeof *p);
    /* Calibrated by a command, the plan is the worker's fit; --measured-by
     * names the command (reports/calibration.h). */
    struct calc_request worker = *req;
    if (req->process == PROCESS_COMMAND)
        worker.choice.want[GROUP_AXIS_measured_by] = "worker";
    if (!(p->fit = find_fit(set, &worker, err, errlen)))
        return -1;
    const struct group_fit *g = p->fit;
    long replicas = req->replicas > 0 ? req->replicas : 1;
    p->training = is_training(g->key.technique);
    p->process = plan_process_term(set, (enum plan_process)req->process, g, req->choice.want[GROUP_AXIS_measured_by],
                                   &p->calibration, &p->process_words, err, errlen);
    if (!p->process)
        return -1;
    p->other_machine = !req->on_measuring_machine &&
                       !hardware_is_here(&g->hw, p->other_machine_why, sizeof p->other_machine_why);
    p->seq_len = req->seq_len > 0 ? req->seq_len : g->seq_lens[g->n_seq - 1];
    p->usable_mib = req->budget_mib * (1 - req->margin);
    p->per_sample_mib = group_per_sample(g, p->seq_len);
    p->fixed_mib = group_chosen(g)->c[0];
    if (replica_shift_make(req, g, &p->shift, err, errlen) != 0)
        return -1;
    p->fixed_per_replica_mib = p->fixed_mib + p->shift.line_mib;
    p->max_micro_batch_estimate = largest_at_estimate(p);
    p->max_micro_batch = largest_within_interval(p, p->max_micro_batch_estimate);
    long target = p->training ? req->target_batch : 0;
    if (req->micro_batch > 0) {
        p->micro_batch = req->micro_batch;
    } else {
        long max_b = p->max_micro_batch ? p->max_micro_batch : p->max_micro_batch_estimate;
        p->micro_batch = calc_choose_micro_batch(max_b, target, replicas);
    }
    p->accum = calc_accum_steps(p->micro_batch, replicas, target, req->accum);
    evaluate(p, replicas);
    return 0;
}
