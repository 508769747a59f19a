/* calc_cmd.c: `peakfit calc`'s options (one table: names, ranges,
 * defaults, help and the messages all come from it) and its two outputs,
 * a few lines for people and one JSON object (jansson) for programs. */
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "fit/fit_json.h"
#include "reports/calc.h"
#include "reports/calc_standalone.h"
#include "sweeps/limits.h"
#include "sweeps/technique.h"
#include "util/exit_status.h"
#include "util/near_name.h"
#include "util/parse.h"
#include "util/size_arg.h"

/* OPT_SHOWN_SIZE: a size whose unit is also the unit standalone plans are shown in. */
enum option_kind { OPT_SIZE, OPT_WHOLE, OPT_FRACTION, OPT_TEXT, OPT_FLAG, OPT_SHOWN_SIZE };

static const struct calc_option {
    const char *name, *arg;
    enum option_kind kind;
    size_t offset; /* of the field in struct calc_request */
    double min, max;
    const char *def, *help;
} calc_options[] = {
    {"budget", "SIZE", OPT_SIZE, offsetof(struct calc_request, budget_mib), 0, 0, NULL,
     "memory for the whole process, baseline included (24GiB, 512MiB)"},
    {"target-batch", "E", OPT_WHOLE, offsetof(struct calc_request, target_batch), 1, LIMIT_TARGET_BATCH_MAX,
     "one micro-batch per replica", "effective batch to reach by accumulation (training only)"},
    {"replicas", "G", OPT_WHOLE, offsetof(struct calc_request, replicas), 1, LIMIT_REPLICAS_MAX, "1",
     "data-parallel replicas, each with its own memory"},
    {"seq-len", "S", OPT_WHOLE, offsetof(struct calc_request, seq_len), 1, LIMIT_SEQ_LEN_MAX,
     "the largest measured", "sequence length"},
    {"technique", "T", OPT_TEXT, offsetof(struct calc_request, technique), 0, 0, "full", "technique"},
    {"model", "M", OPT_TEXT, offsetof(struct calc_request, model), 0, 0, "the only model measured",
     "model, as in peaks.csv's model column"},
    {"device", "D", OPT_TEXT, offsetof(struct calc_request, device), 0, 0, "the only device measured",
     "device"},
    {"attention", "A", OPT_TEXT, offsetof(struct calc_request, attention), 0, 0, "the only attention measured",
     "attention implementation (sdpa, eager)"},
    {"margin", "F", OPT_FRACTION, offsetof(struct calc_request, margin), 0, 0.99, "0",
     "fraction of the budget kept free"},
    {"micro-batch", "B", OPT_WHOLE, offsetof(struct calc_request, micro_batch), 1, LIMIT_BATCH_MAX, NULL,
     "check this micro-batch instead of choosing one"},
    {"accum", "A", OPT_WHOLE, offsetof(struct calc_request, accum), 1, LIMIT_TARGET_BATCH_MAX, "1",
     "with --micro-batch: accumulation steps of the plan to check"},
    {"json", NULL, OPT_FLAG, offsetof(struct calc_request, json), 0, 0, NULL, "print one JSON object"},
    {"per-sample", "SIZE", OPT_SHOWN_SIZE, offsetof(struct calc_request, per_sample_mib), 0, 0, NULL,
     "without DIR: activation memory per sample (0.5GB); prints E = b*a*g and M = b*A_sample"},
    {"per-token", "SIZE", OPT_SHOWN_SIZE, offsetof(struct calc_request, per_token_mib), 0, 0, NULL,
     "without DIR: activation memory per token, with --seq-len"},
    {"fixed", "SIZE", OPT_SIZE, offsetof(struct calc_request, fixed_mib), 0, 0, NULL,
     "without DIR, with --budget: memory that does not grow with the batch (weights, grads, optimizer)"},
    {"zero", "Z", OPT_WHOLE, offsetof(struct calc_request, zero), 1, 3, "none",
     "with --replicas: ZeRO stage sharding 1 optimizer state, 2 + grads, 3 + weights (FSDP FULL_SHARD = 3)"},
};
enum { N_OPTIONS = sizeof calc_options / sizeof calc_options[0] };

void calc_print_options(FILE *out)
{
    for (int i = 0; i < N_OPTIONS; i++) {
        const struct calc_option *o = &calc_options[i];
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-20s %s%s%s%s\n", left, o->help, o->def ? " (default: " : "", o->def ? o->def : "",
                o->def ? ")" : "");
    }
}

/* After the message that said what was wrong: one line, not the option
 * list (which would push the message off the screen). */
static int calc_usage(void)
{
    fprintf(stderr, "peakfit calc --help lists the options\n");
    return EXIT_BAD_INPUT;
}

static int bad_value(const struct calc_option *o, const char *v)
{
    if (o->kind == OPT_WHOLE)
        fprintf(stderr, "peakfit calc: --%s must be a whole number from %.0f to %.0f, not \"%s\"\n", o->name,
                o->min, o->max, v);
    else if (o->kind == OPT_FRACTION)
        fprintf(stderr, "peakfit calc: --%s must be a fraction from %g to %g, not \"%s\"\n", o->name, o->min,
                o->max, v);
    else if (v[0] && (isdigit((unsigned char)v[strlen(v) - 1]) || v[strlen(v) - 1] == '.'))
        fprintf(stderr, "peakfit calc: --%s needs a unit (e.g. 24GiB, 512MiB), not \"%s\"\n", o->name, v);
    else
        fprintf(stderr, "peakfit calc: --%s must be a size above 0 such as 24GiB or 512MiB, not \"%s\"\n",
                o->name, v);
    return -1;
}

/* Reads option o's value v into the request; -1 after saying why not. */
static int set_option(struct calc_request *r, const struct calc_option *o, const char *v)
{
    char *field = (char *)r + o->offset;
    int64_t bytes;
    long n;
    switch (o->kind) {
    case OPT_SHOWN_SIZE:
    case OPT_SIZE:
        if (o->kind == OPT_SHOWN_SIZE) {
            double factor;
            r->unit_name = bytes_unit(v, &factor);
            r->unit_mib = factor / 1048576.0;
        }
        /* A bare number would be bytes: far more likely a forgotten unit. */
        if (!v[0] || isdigit((unsigned char)v[strlen(v) - 1]) || v[strlen(v) - 1] == '.' ||
            parse_bytes(v, &bytes) != 0 || bytes <= 0)
            return bad_value(o, v);
        *(double *)field = bytes / 1048576.0;
        return 0;
    case OPT_WHOLE:
        if (parse_long(v, (long)o->min, (long)o->max, &n) != 0)
            return bad_value(o, v);
        *(long *)field = n;
        return 0;
    case OPT_FRACTION:
        return parse_double(v, o->min, o->max, (double *)field) != 0 ? bad_value(o, v) : 0;
    case OPT_TEXT:
        *(const char **)field = v;
        return 0;
    case OPT_FLAG:
        *(int *)field = 1;
        return 0;
    }
    return -1;
}

static int standalone(const struct calc_request *r) { return r->per_sample_mib > 0 || r->per_token_mib > 0; }

/* The checks between options of a plan without measurements. */
static const char *check_standalone(const struct calc_request *r)
{
    if (r->per_sample_mib > 0 && r->per_token_mib > 0)
        return "--per-sample and --per-token are two ways to say one thing: give one";
    if ((r->fixed_mib > 0) != (r->budget_mib > 0))
        return "without DIR, --fixed F and --budget SIZE go together: the budget holds F + b x A_sample";
    if (r->accum > 0 && r->micro_batch <= 0)
        return "--accum needs --micro-batch: --micro-batch B --accum A checks a given plan";
    if (r->zero > 0)
        return "--zero needs DIR or a fit.json: it shards the weights, grads and optimizer state they measured";
    return NULL;
}

/* E = b x a x g as a whole number a plan can print: refused past 2^53
 * (where a double stops counting by ones; a long overflows later). */
static const char *effective_batch_too_large(const struct calc_request *r)
{
    double e = (double)r->micro_batch * (double)r->accum * (double)(r->replicas > 0 ? r->replicas : 1);
    if (r->micro_batch <= 0 || r->accum <= 0 || e <= 9007199254740992.0)
        return NULL;
    return "--micro-batch x --accum x --replicas is past 2^53: no effective batch that large can run";
}

/* The technique's checks, with or without DIR: a known name, and no
 * accumulation for one that does not train. */
static const char *technique_problem(const struct calc_request *r, char *buf, size_t size)
{
    int t = technique_from_name(r->technique);
    if (t < 0)
        snprintf(buf, size, "--technique must be one of %s, not \"%.64s\"", technique_names(), r->technique);
    else if (!technique_is_training((pf_technique)t) && (r->target_batch > 0 || r->accum > 0))
        snprintf(buf, size, "%.64s does not train: --target-batch and --accum apply to training techniques only",
                 r->technique);
    else
        return NULL;
    return buf;
}

/* The checks between options, once all are read. */
static int check_request(const struct calc_request *r)
{
    const char *why = NULL;
    char buf[512];
    if (standalone(r))
        why = check_standalone(r);
    else if (r->fixed_mib > 0)
        why = "--fixed is for a plan without measurements (with --per-sample or --per-token); DIR's fit measures F";
    else if (r->budget_mib <= 0)
        why = "needs --budget SIZE";
    else if (r->zero > 0 && r->replicas < 2)
        why = "--zero shards across replicas: it needs --replicas 2 or more";
    else if (r->accum > 0 && r->micro_batch <= 0)
        why = "--accum needs --micro-batch: --micro-batch B --accum A checks a given plan";
    if (!why)
        why = technique_problem(r, buf, sizeof buf);
    if (!why)
        why = effective_batch_too_large(r);
    if (why)
        fprintf(stderr, "peakfit calc: %s\n", why);
    return why ? -1 : 0;
}

/* Fills the request from the command line; returns the index of DIR, or
 * -1 after saying what is wrong. */
/* "unknown option", with the option it most likely meant. */
static int unknown_option(const char *arg)
{
    struct near_name near;
    const char *name = arg + strspn(arg, "-");
    near_name_start(&near, strndupa(name, strcspn(name, "=")));
    for (int i = 0; i < N_OPTIONS; i++)
        near_name_offer(&near, calc_options[i].name);
    if (near_name_best(&near))
        fprintf(stderr, "peakfit calc: unknown option \"%s\"; did you mean --%s?\n", arg, near_name_best(&near));
    else
        fprintf(stderr, "peakfit calc: unknown option \"%s\"\n", arg);
    return -1;
}

static int parse_calc_args(int argc, char **argv, struct calc_request *r)
{
    struct option longopts[N_OPTIONS + 1];
    for (int i = 0; i < N_OPTIONS; i++)
        longopts[i] = (struct option){calc_options[i].name, calc_options[i].arg ? required_argument : no_argument,
                                      NULL, i};
    longopts[N_OPTIONS] = (struct option){0, 0, 0, 0};
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        if (opt == ':') {
            fprintf(stderr, "peakfit calc: %s needs a value\n", argv[optind - 1]);
            return -1;
        }
        if (opt == '?')
            return unknown_option(argv[optind - 1]);
        const struct calc_option *o = &calc_options[opt];
        if ((o->kind == OPT_SIZE || o->kind == OPT_SHOWN_SIZE) && size_unit_detached(optarg, argv[optind])) {
            fprintf(stderr, "peakfit calc: --%s %s %s: the unit must be attached to the number: --%s %s%s\n",
                    o->name, optarg, argv[optind], o->name, optarg, argv[optind]);
            return -1;
        }
        if (set_option(r, o, optarg) != 0)
            return -1;
    }
    if (standalone(r) && optind != argc) {
        fprintf(stderr, "peakfit calc: --per-sample and --per-token plan without measurements: no DIR (\"%s\")\n",
                argv[optind]);
        return -1;
    }
    if (!standalone(r) && optind != argc - 1) {
        fprintf(stderr, "peakfit calc: %s\n", optind == argc ? "needs DIR" : "takes one DIR");
        return -1;
    }
    return check_request(r) == 0 ? optind : -1;
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
    int dir = parse_calc_args(argc, argv, &req);
    if (dir < 0)
        return calc_usage();
    return standalone(&req) ? calc_standalone_run(&req) : calc_run(argv[dir], &req);
}
