/* calc_options.c: `peakfit calc`'s options: one table, from which the
 * names, ranges, defaults, help and the messages all come, and the checks
 * between options once all are read. */
#include <ctype.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "reports/calc.h"
#include "sweeps/limits.h"
#include "core/technique.h"
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

int calc_request_standalone(const struct calc_request *r) { return r->per_sample_mib > 0 || r->per_token_mib > 0; }

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
    if (calc_request_standalone(r))
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

int calc_parse_args(int argc, char **argv, struct calc_request *r)
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
    if (calc_request_standalone(r) && optind != argc) {
        fprintf(stderr, "peakfit calc: --per-sample and --per-token plan without measurements: no DIR (\"%s\")\n",
                argv[optind]);
        return -1;
    }
    if (!calc_request_standalone(r) && optind != argc - 1) {
        fprintf(stderr, "peakfit calc: %s\n", optind == argc ? "needs DIR" : "takes one DIR");
        return -1;
    }
    return check_request(r) == 0 ? optind : -1;
}
