/* calc.c: the planning arithmetic. Predictions use the rss fit (what the
 * OS sees) plus the measured baseline, so the budget is the whole process. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "reports/calc.h"
#include "util/parse.h"

static const struct group_fit *find_fit(const struct fit_set *set, const struct calc_request *req,
                                        char *err, unsigned long errlen)
{
    const struct group_fit *g = fit_set_find(set, req->model, req->technique, METRIC_RSS);
    if (!g) {
        snprintf(err, errlen, "%s: no fit for technique %s%s%s", set->dir, req->technique,
                 req->model ? " and model " : "", req->model ? req->model : "");
        return NULL;
    }
    for (int i = 0; !req->model && i < set->n_groups; i++)
        if (strcmp(set->groups[i].model, g->model) != 0) {
            snprintf(err, errlen, "%s holds more than one model: choose one with --model", set->dir);
            return NULL;
        }
    if (!group_chosen(g)) {
        snprintf(err, errlen, "%s: technique %s cannot be fitted (%s)", set->dir, req->technique, g->reason);
        return NULL;
    }
    return g;
}

static long largest_fitting_batch(const struct group_fit *g, double usable, int s)
{
    double per_sample = group_per_sample(g, s);
    double room = usable - g->baseline_mib - group_chosen(g)->c[0];
    if (per_sample <= 0)
        return 0; /* a fit whose peak does not grow with batch cannot bound it */
    double b = floor(room / per_sample);
    return b >= 1 ? (long)fmin(b, 1e9) : 0;
}

/* The largest micro-batch that fits, unless a slightly smaller one (down
 * to half) makes b * a * g hit the target exactly; never more than the
 * target needs. 1 when nothing fits, so the plan shows as not fitting. */
static long choose_micro_batch(long max_b, long target, int replicas)
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

static void evaluate(struct calc_plan *p, int replicas)
{
    const struct group_fit *g = p->fit;
    p->effective_batch = p->micro_batch * p->accum * replicas;
    p->predicted_mib = g->baseline_mib + group_predict(g, (double)p->micro_batch, p->seq_len, &p->predicted_ci95_mib);
    p->activation_mib = (double)p->micro_batch * p->per_sample_mib;
    p->fits = p->predicted_mib <= p->usable_mib;
    p->extrapolated = p->micro_batch > g->max_batch || p->seq_len > g->seq_lens[g->n_seq - 1] ||
                      p->seq_len < g->seq_lens[0];
}

int calc_plan_make(const struct fit_set *set, const struct calc_request *req, struct calc_plan *p,
                   char *err, unsigned long errlen)
{
    memset(p, 0, sizeof *p);
    if (!(p->fit = find_fit(set, req, err, errlen)))
        return -1;
    const struct group_fit *g = p->fit;
    p->seq_len = req->seq_len > 0 ? req->seq_len : g->seq_lens[g->n_seq - 1];
    p->usable_mib = req->budget_mib * (1 - req->margin);
    p->per_sample_mib = group_per_sample(g, p->seq_len);
    p->max_micro_batch = largest_fitting_batch(g, p->usable_mib, p->seq_len);
    if (req->micro_batch > 0) {
        p->micro_batch = req->micro_batch;
        p->accum = req->accum > 0 ? req->accum : 1;
    } else {
        p->micro_batch = choose_micro_batch(p->max_micro_batch, req->target_batch, req->replicas);
        long per_step = p->micro_batch * req->replicas;
        p->accum = req->target_batch > 0 ? (req->target_batch + per_step - 1) / per_step : 1;
    }
    evaluate(p, req->replicas);
    return 0;
}

static void print_human(const struct calc_request *req, const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    printf("plan for %s / %s on %s, seq_len %d\n", g->model, g->technique, g->device, p->seq_len);
    printf("  budget %.0f MiB, margin %.0f%%: usable %.0f MiB (baseline %.0f MiB included)\n",
           req->budget_mib, req->margin * 100, p->usable_mib, g->baseline_mib);
    printf("  fit: %s, F = %.1f MiB, activations %.4g MiB per sample at s=%d\n",
           group_chosen(g)->p == 3 ? "quadratic" : "linear", group_chosen(g)->c[0], p->per_sample_mib, p->seq_len);
    if (p->max_micro_batch > 0)
        printf("  largest micro-batch that fits: b = %ld\n", p->max_micro_batch);
    else
        printf("  not even micro-batch 1 fits this budget\n");
    printf("  micro-batch b = %ld, accumulation steps a = %ld, replicas g = %d\n", p->micro_batch, p->accum,
           req->replicas);
    printf("  effective batch E = b x a x g = %ld x %ld x %d = %ld\n", p->micro_batch, p->accum, req->replicas,
           p->effective_batch);
    printf("  activation memory M = b x A_sample = %.1f MiB\n", p->activation_mib);
    printf("  predicted peak %.1f MiB (95%% CI +- %.1f): %s\n", p->predicted_mib, p->predicted_ci95_mib,
           p->fits ? "fits" : "DOES NOT FIT");
    if (req->target_batch > 0 && p->effective_batch != req->target_batch)
        printf("  note: no micro-batch that fits makes b x a x g exactly %ld\n", req->target_batch);
    if (p->extrapolated)
        printf("  note: outside the measured range (batch %d-%d, seq_len %d-%d): an extrapolation\n",
               g->min_batch, g->max_batch, g->seq_lens[0], g->seq_lens[g->n_seq - 1]);
}

static void print_json(const struct calc_request *req, const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    printf("{\"model\": \"%s\", \"device\": \"%s\", \"technique\": \"%s\", \"seq_len\": %d, "
           "\"budget_mib\": %.3f, \"margin\": %.4g, \"usable_mib\": %.3f, \"baseline_mib\": %.3f, "
           "\"fit_model\": \"%s\", \"per_sample_mib\": %.6g, \"max_micro_batch\": %ld, "
           "\"micro_batch\": %ld, \"accum_steps\": %ld, \"replicas\": %d, \"effective_batch\": %ld, "
           "\"activation_mib\": %.3f, \"predicted_peak_mib\": %.3f, \"predicted_peak_ci95_mib\": %.3f, "
           "\"fits\": %s, \"extrapolated\": %s}\n",
           g->model, g->device, g->technique, p->seq_len, req->budget_mib, req->margin, p->usable_mib,
           g->baseline_mib, group_chosen(g)->p == 3 ? "quadratic" : "linear", p->per_sample_mib,
           p->max_micro_batch, p->micro_batch, p->accum, req->replicas, p->effective_batch,
           p->activation_mib, p->predicted_mib, p->predicted_ci95_mib, p->fits ? "true" : "false",
           p->extrapolated ? "true" : "false");
}

static int calc_usage(const char *why)
{
    fprintf(stderr, "peakfit calc: %s\nusage: peakfit calc DIR --budget SIZE [--target-batch E] [--replicas G]\n"
            "       [--seq-len S] [--technique T] [--model M] [--margin 0.1] [--micro-batch B --accum A] [--json]\n",
            why);
    return 2;
}

static int parse_calc_option(struct calc_request *r, int opt, const char *v, int *json)
{
    long n;
    int64_t bytes;
    switch (opt) {
    case 'b': if (parse_bytes(v, &bytes) || bytes <= 0) return -1; r->budget_mib = bytes / 1048576.0; return 0;
    case 'E': return parse_long(v, 1, 1000000000L, &r->target_batch);
    case 'g': if (parse_long(v, 1, 1000000, &n)) return -1; r->replicas = (int)n; return 0;
    case 's': if (parse_long(v, 1, 1000000, &n)) return -1; r->seq_len = (int)n; return 0;
    case 't': r->technique = v; return 0;
    case 'm': r->model = v; return 0;
    case 'M': return parse_double(v, 0, 0.99, &r->margin);
    case 'B': if (parse_long(v, 1, 1000000, &n)) return -1; r->micro_batch = (int)n; return 0;
    case 'a': if (parse_long(v, 1, 1000000, &n)) return -1; r->accum = (int)n; return 0;
    case 'j': *json = 1; return 0;
    default: return -1;
    }
}

int calc_main(int argc, char **argv)
{
    static const struct option options[] = {
        {"budget", 1, 0, 'b'}, {"target-batch", 1, 0, 'E'}, {"replicas", 1, 0, 'g'},
        {"seq-len", 1, 0, 's'}, {"technique", 1, 0, 't'}, {"model", 1, 0, 'm'}, {"margin", 1, 0, 'M'},
        {"micro-batch", 1, 0, 'B'}, {"accum", 1, 0, 'a'}, {"json", 0, 0, 'j'}, {0, 0, 0, 0}};
    struct calc_request req = {.technique = "full", .replicas = 1};
    int opt, json = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1)
        if (opt == '?' || parse_calc_option(&req, opt, optarg, &json) != 0)
            return calc_usage(opt == '?' ? "unknown option" : "invalid option value");
    if (optind != argc - 1 || req.budget_mib <= 0)
        return calc_usage("needs DIR and --budget");
    struct fit_set set;
    struct calc_plan plan;
    char err[700];
    int rc = fit_set_load(argv[optind], &set, err, sizeof err) == 0 &&
             calc_plan_make(&set, &req, &plan, err, sizeof err) == 0 ? 0 : 2;
    if (rc != 0)
        fprintf(stderr, "peakfit: %s\n", err);
    else if (json)
        print_json(&req, &plan);
    else
        print_human(&req, &plan);
    fit_set_free(&set); /* fit_set_load leaves it freeable even when it fails */
    return rc;
}
