/* calc_cmd.c: `peakfit calc` (its options are calc_options.c's) and its two
 * outputs, a few lines for people and one JSON object (jansson) for
 * programs. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "fit/fit_json.h"
#include "reports/calc.h"
#include "reports/calc_standalone.h"
#include "util/exit_status.h"

/* After the message that said what was wrong: one line, not the option
 * list (which would push the message off the screen). */
static int calc_usage(void)
{
    fprintf(stderr, "peakfit calc --help lists the options\n");
    return EXIT_BAD_INPUT;
}

static void print_human(const struct calc_request *req, const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    char key[400];
    group_key_format(&g->key, key, sizeof key);
    printf("plan for %s, seq_len %ld\n", key, p->seq_len);
    printf("  budget %.0f MiB, margin %.0f%%: usable %.0f MiB (baseline %.0f MiB included)\n",
           req->budget_mib, req->margin * 100, p->usable_mib, g->baseline_mib);
    if (g->metric == METRIC_RESERVED)
        printf("  on the GPU: planned against the caching allocator's reserved peak plus the context outside it "
               "(the baseline above), what runs out first on the device\n");
    printf("  fit: %s, F = %.1f MiB, activations %.4g MiB per sample at s=%ld\n",
           group_chosen(g)->p == 3 ? "quadratic" : "linear", group_chosen(g)->c[0], p->per_sample_mib, p->seq_len);
    if (req->zero > 0)
        printf("  fixed cost per replica under ZeRO-%ld on %ld replicas: %.1f MiB (unsharded %.1f MiB: weights %.1f, "
               "grads %.1f, optimizer state %.1f)\n", req->zero, req->replicas, p->fixed_per_replica_mib, p->fixed_mib,
               g->weight_mib, g->grad_mib, g->optimizer_mib);
    const char *batch = p->training ? "micro-batch" : "batch";
    if (p->max_micro_batch > 0)
        printf("  largest %s that fits within its 95%% interval: b = %ld", batch, p->max_micro_batch);
    else if (p->max_micro_batch_estimate > 0)
        printf("  no %s fits within its 95%% interval", batch);
    else
        printf("  not even %s 1 fits this budget", batch);
    if (p->max_micro_batch_estimate != p->max_micro_batch)
        printf(" (at the estimate: b = %ld)", p->max_micro_batch_estimate);
    printf("\n");
    if (p->training) {
        printf("  micro-batch b = %ld, accumulation steps a = %ld, replicas g = %ld\n", p->micro_batch, p->accum,
               req->replicas);
        printf("  effective batch E = b x a x g = %ld x %ld x %ld = %ld\n", p->micro_batch, p->accum, req->replicas,
               p->effective_batch);
    } else {
        printf("  batch b = %ld (%s does not train: no accumulation, no effective batch)\n", p->micro_batch,
               g->key.technique);
    }
    printf("  activation memory M = b x A_sample = %.1f MiB\n", p->activation_mib);
    printf("  predicted peak %.1f MiB (95%% prediction interval +- %.1f): %s\n", p->predicted_mib,
           p->predicted_ci95_mib, plan_outcome_words(p->outcome));
    if (!isfinite(p->predicted_ci95_mib))
        printf("  warning: no prediction interval (%d residual degrees of freedom): nothing is known to fit\n",
               g->dof);
    if (g->floor.found)
        printf("  set by: %s (peak = max(floor P %.1f MiB, F + A x T); %d points on the floor, %d above the knee)\n",
               p->floor_binds ? "the floor" : "the line", g->floor.p_mib, g->floor.k, g->n_above);
    if (g->n_above < GROUP_FIT_ABOVE_MIN)
        printf("  warning: only %d measured point%s above the knee (fewer than %d): the plan rests on too little; "
               "measure larger batches\n", g->n_above, g->n_above == 1 ? "" : "s", GROUP_FIT_ABOVE_MIN);
    if (p->past_tokens)
        printf("  EXTRAPOLATION: b x s = %.0f tokens, over %d times the largest measured (%.0f)\n",
               (double)p->micro_batch * (double)p->seq_len, CALC_EXTRAPOLATION_FACTOR, g->max_tokens);
    if (g->flags[0])
        printf("  warning: poor fit: %s\n", g->flags);
    if (p->far_extrapolated)
        printf("  warning: far outside the measured range (over %d times the largest batch or seq_len measured)\n",
               CALC_FAR_FACTOR);
    if (p->training && req->target_batch > 0 && p->effective_batch != req->target_batch)
        printf("  note: no micro-batch that fits makes b x a x g exactly %ld\n", req->target_batch);
    if (p->extrapolated)
        printf("  note: outside the measured range (batch %d-%d, seq_len %d-%d): an extrapolation\n",
               g->min_batch, g->max_batch, g->seq_lens[0], g->seq_lens[g->n_seq - 1]);
    if (p->linear_seq_len_beyond)
        printf("  note: seq_len %ld is past the measured %d and the fit has no b x s^2 term (%s): it assumes "
               "activations grow linearly with seq_len; attention that keeps [b, heads, s, s] scores grows faster\n",
               p->seq_len, g->seq_lens[g->n_seq - 1], g->reason);
}

json_t *calc_plan_json(const struct calc_request *req, const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    json_t *o = json_object();
#define GROUP_KEY_JSON(field, size, ...) json_object_set_new(o, #field, json_string(g->key.field));
    GROUP_KEY_ALL(GROUP_KEY_JSON)
#undef GROUP_KEY_JSON
    json_object_set_new(o, "seq_len", json_integer(p->seq_len));
    json_object_set_new(o, "budget_mib", json_real(req->budget_mib));
    json_object_set_new(o, "margin", json_real(req->margin));
    json_object_set_new(o, "usable_mib", json_real(p->usable_mib));
    json_object_set_new(o, "baseline_mib", json_real(g->baseline_mib));
    json_object_set_new(o, "metric", json_string(metric_name(g->metric)));
    json_object_set_new(o, "fit_model", json_string(group_chosen(g)->p == 3 ? "quadratic" : "linear"));
    json_object_set_new(o, "fixed_mib", json_real(p->fixed_mib));
    json_object_set_new(o, "zero_stage", json_integer(req->zero));
    json_object_set_new(o, "fixed_per_replica_mib", json_real(p->fixed_per_replica_mib));
    json_object_set_new(o, "per_sample_mib", json_real(p->per_sample_mib));
    json_object_set_new(o, "training", json_boolean(p->training));
    json_object_set_new(o, "max_micro_batch", json_integer(p->max_micro_batch));
    json_object_set_new(o, "micro_batch", json_integer(p->micro_batch));
    if (p->training) { /* no accumulation without training */
        json_object_set_new(o, "accum_steps", json_integer(p->accum));
        json_object_set_new(o, "replicas", json_integer(req->replicas));
        json_object_set_new(o, "effective_batch", json_integer(p->effective_batch));
    }
    json_object_set_new(o, "activation_mib", json_real(p->activation_mib));
    json_object_set_new(o, "predicted_peak_mib", json_real(p->predicted_mib));
    json_object_set_new(o, "predicted_peak_ci95_mib",
                        isfinite(p->predicted_ci95_mib) ? json_real(p->predicted_ci95_mib) : json_null());
    json_object_set_new(o, "interval", json_string("95% prediction interval of a new measurement"));
    json_object_set_new(o, "fits", json_boolean(p->fits));
    json_object_set_new(o, "outcome", json_string(plan_outcome_words(p->outcome)));
    json_object_set_new(o, "max_micro_batch_at_estimate", json_integer(p->max_micro_batch_estimate));
    json_object_set_new(o, "extrapolated", json_boolean(p->extrapolated));
    json_object_set_new(o, "linear_in_seq_len_beyond_measured", json_boolean(p->linear_seq_len_beyond));
    json_object_set_new(o, "far_outside_measured", json_boolean(p->far_extrapolated));
    json_object_set_new(o, "extrapolation", json_boolean(p->past_tokens));
    json_object_set_new(o, "tokens_max_measured", json_real(g->max_tokens));
    json_object_set_new(o, "floor", json_boolean(g->floor.found));
    json_object_set_new(o, "set_by", json_string(p->floor_binds ? "floor" : "line"));
    json_object_set_new(o, "points_above_knee", json_integer(g->n_above));
    json_object_set_new(o, "too_few_above_knee", json_boolean(g->n_above < GROUP_FIT_ABOVE_MIN));
    json_object_set_new(o, "fit_flags", json_string(g->flags));
    return o;
}

/* Prints one JSON object on a line, and frees it. */
static void print_json(json_t *o)
{
    json_dumpf(o, stdout, JSON_INDENT(0) | JSON_PRESERVE_ORDER);
    printf("\n");
    json_decref(o);
}

/* dir: a results directory (its peaks.csv is fitted) or a fit.json. */
static int calc_run(const char *dir, const struct calc_request *req)
{
    struct fit_set set;
    struct calc_plan plan;
    char err[4400];
    struct stat st;
    int from_json = stat(dir, &st) == 0 && !S_ISDIR(st.st_mode);
    int loaded = from_json ? fit_json_load(dir, &set, err, sizeof err) : fit_set_load(dir, &set, err, sizeof err);
    int rc = loaded == 0 && calc_plan_make(&set, req, &plan, err, sizeof err) == 0 ? EXIT_DONE : EXIT_BAD_INPUT;
    if (rc == EXIT_DONE)
        rc = plan_outcome_exit(plan.outcome);
    if (rc == EXIT_BAD_INPUT) {
        fprintf(stderr, "peakfit: %s\n", err);
    } else if (req->json) {
        print_json(calc_plan_json(req, &plan));
    } else {
        print_human(req, &plan);
    }
    fit_set_free(&set); /* fit_set_load leaves it freeable even when it fails */
    return rc;
}

static int calc_standalone_run(const struct calc_request *req)
{
    struct standalone_plan plan;
    char err[256];
    if (standalone_plan_make(req, &plan, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit calc: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (req->json) {
        print_json(standalone_plan_json(req, &plan));
    } else {
        standalone_plan_print(req, &plan);
    }
    return plan.judged ? plan_outcome_exit(plan.outcome) : EXIT_DONE;
}

int calc_main(int argc, char **argv)
{
    struct calc_request req = {.technique = "full", .replicas = 1, .unit_name = "MiB", .unit_mib = 1};
    const char *dir;
    char why[1024];
    if (calc_parse_args(argc, argv, &req, &dir, why, sizeof why) != 0) {
        fprintf(stderr, "peakfit calc: %s\n", why);
        return calc_usage();
    }
    return dir ? calc_run(dir, &req) : calc_standalone_run(&req);
}
