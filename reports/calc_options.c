/* calc_options.c: `peakfit calc`'s options: one table for the option
 * engine (util/options.h), from which the names, ranges, defaults, help,
 * synopsis and messages all come, and the checks between options once all
 * are read. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "reports/calc.h"
#include "sweeps/limits.h"
#include "core/technique.h"
#include "fit/group_fit.h"
#include "point/setting_options.h"
#include "util/options.h"
#include "util/parse.h"

#define CALC_FIELD(f) offsetof(struct calc_request, f)
#define GROUP_CHOICE_BASE CALC_FIELD(choice)

/* --per-sample and --per-token: the unit they were given in is the unit
 * a plan without measurements is shown in. */
static void remember_unit(const struct opt_row *row, const char *value, void *target)
{
    struct calc_request *r = target;
    double factor;
    (void)row;
    r->unit_name = bytes_unit(value, &factor);
    r->unit_mib = factor / 1048576.0;
}

/* --metric: the fits' names (fit/group.c's table). */
static const char *metric_name_at(int i) { return metric_name((enum metric)i); }
static const struct opt_names metric_names = {metric_name_at, METRIC_COUNT, NULL, NULL};

static const struct opt_row calc_rows[] = {
    {"budget", 0, "SIZE", OPT_SIZE_MIB, CALC_FIELD(budget_mib), .flags = OPT_MAIN_FORM,
     .help = "memory for the whole process, baseline included (24GiB, 512MiB)"},
    {"target-batch", 0, "E", OPT_LONG, CALC_FIELD(target_batch), 1, LIMIT_TARGET_BATCH_MAX,
     .flags = OPT_DEF_WORDS, .def = "one micro-batch per replica",
     .help = "effective batch to reach by accumulation (training only)"},
    {"replicas", 0, "G", OPT_LONG, CALC_FIELD(replicas), 1, LIMIT_REPLICAS_MAX, .def = "1",
     .help = "data-parallel replicas, each with its own memory"},
    SETTING_OPTION("seq_len", .type = OPT_LONG, .off = CALC_FIELD(seq_len), .flags = OPT_DEF_WORDS,
                   .def = "the largest measured"),
    /* Text: with DIR, a command job's label (core/technique.h) too; without, checked below. */
    SETTING_OPTION("technique", .type = OPT_TEXT, .off = CALC_FIELD(technique), .def = "full"),
    /* Every other axis of the group key, from the settings table. */
    GROUP_CHOICE_OPTION_ROWS
    {"metric", 0, "M", OPT_NAME, CALC_FIELD(metric), .names = &metric_names, .flags = OPT_DEF_WORDS,
     .def = "reserved where measured on a GPU, else rss",
     .help = "the fit to plan with; tensor: the allocator level (peaks above the RSS baseline as measured)"},
    PLAN_PROCESS_OPTION_ROW(CALC_FIELD(process)),
    {"margin", 0, "F", OPT_DOUBLE, CALC_FIELD(margin), 0, 0.99, .def = "0", .help = "fraction of the budget kept free",
     .noun = "fraction"},
    {"micro-batch", 0, "B", OPT_LONG, CALC_FIELD(micro_batch), 1, LIMIT_BATCH_MAX,
     .help = "check this micro-batch instead of choosing one"},
    {"accum", 0, "A", OPT_LONG, CALC_FIELD(accum), 1, LIMIT_TARGET_BATCH_MAX, .flags = OPT_DEF_WORDS,
     .def = "1, or what --target-batch needs",
     .help = "with --micro-batch: accumulation steps of the plan to check"},
    {"json", 0, NULL, OPT_FLAG, CALC_FIELD(json), .help = "print one JSON object"},
    {"per-sample", 0, "SIZE", OPT_SIZE_MIB, CALC_FIELD(per_sample_mib), .then = remember_unit,
     .help = "without DIR: activation memory per sample (0.5GB); prints E = b*a*g and M = b*A_sample"},
    {"per-token", 0, "SIZE", OPT_SIZE_MIB, CALC_FIELD(per_token_mib), .then = remember_unit,
     .help = "without DIR: activation memory per token, with --seq-len"},
    {"fixed", 0, "SIZE", OPT_SIZE_MIB, CALC_FIELD(fixed_mib),
     .help = "without DIR, with --budget: memory that does not grow with the batch (weights, grads, optimizer)"},
    {"zero", 0, "Z", OPT_LONG, CALC_FIELD(zero), 1, 3, .flags = OPT_DEF_WORDS, .def = "none",
     .help = "with --replicas: ZeRO stage sharding 1 optimizer state, 2 + grads, 3 + weights (FSDP FULL_SHARD = 3)"},
    {"config", 0, "PATH", OPT_TEXT, CALC_FIELD(config), .flags = OPT_DEF_WORDS, .def = "the model's, if a preset",
     .help = "with --zero 3: the model's config.json, to size what FSDP holds unsharded (root module, a layer)"},
};


const struct opt_table calc_options =
    SETTING_OPTION_TABLE("calc", "DIR", calc_rows,
              "calc --per-sample SIZE | --per-token SIZE --seq-len S  --micro-batch B [--accum A] [--replicas G]\n"
              "       [--fixed SIZE --budget SIZE] [--json]");

int calc_request_standalone(const struct calc_request *r) { return r->per_sample_mib > 0 || r->per_token_mib > 0; }

/* The checks between options of a plan without measurements. */
static const char *check_standalone(const struct calc_request *r)
{
    static char buf[512];
    if (technique_from_name(r->technique) < 0) {
        snprintf(buf, sizeof buf, "--technique must be one of %s, not \"%.64s\" (a command job's label needs DIR)",
                 technique_names(), r->technique);
        return buf;
    }
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

/* The technique's check, with or without DIR (its name the option table
 * checked): no accumulation for one that does not train. */
static const char *technique_problem(const struct calc_request *r, char *buf, size_t size)
{
    int t = technique_from_name(r->technique);
    if (t >= 0 && !technique_is_training((pf_technique)t) && (r->target_batch > 0 || r->accum > 0))
        snprintf(buf, size, "%.64s does not train: --target-batch and --accum apply to training techniques only",
                 r->technique);
    else
        return NULL;
    return buf;
}

/* The checks between options, once all are read: NULL, or what is wrong. */
static const char *request_problem(const struct calc_request *r, char *buf, size_t size)
{
    const char *why = NULL;
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
        why = technique_problem(r, buf, size);
    if (!why)
        why = effective_batch_too_large(r);
    return why;
}

int calc_parse_args(int argc, char **argv, struct calc_request *r, const char **dir, char *why, size_t size)
{
    const char *operands[2];
    int n;
    *dir = NULL;
    if (opt_table_defaults(&calc_options, r, NULL, why, size) != 0 ||
        opt_parse_args(&calc_options, argc, argv, r, operands, 2, &n, why, size) != 0)
        return -1;
    const char *problem = NULL;
    if (calc_request_standalone(r) && n > 0)
        snprintf(why, size, "--per-sample and --per-token plan without measurements: no DIR (\"%s\")", operands[0]);
    else if (!calc_request_standalone(r) && n != 1)
        snprintf(why, size, "%s", n == 0 ? "needs DIR" : "takes one DIR");
    else if ((problem = request_problem(r, why, size)) == NULL)
        return (*dir = n ? operands[0] : NULL, 0);
    else if (problem != why)
        snprintf(why, size, "%s", problem);
    return -1;
}
