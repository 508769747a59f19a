/* auto_args.c: `peakfit auto`'s command line into a struct auto_request. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "autosweep/auto_choose.h"
#include "autosweep/auto_sweep.h"
#include "src/auto_args.h"
#include "core/attention.h"
#include "core/device.h"
#include "sweeps/limits.h"
#include "core/technique.h"
#include "util/exit_status.h"
#include "util/parse.h"

enum { AUTO_DEFAULT_POINTS = 8, AUTO_BUDGET_POINTS = 5 };

static int usage(const char *why)
{
    fprintf(stderr, "peakfit auto: %s\nusage: peakfit auto MODEL --technique T[,T...] --seq-len S -o DIR "
            "[--points N] [--time T] [--target 2%%] [--budget SIZE] [--mem-limit SIZE] [--point-timeout T] [--threads N] "
            "[--attention A] [--device D] [--metric tensor|rss]\n", why);
    return EXIT_BAD_INPUT;
}

static int parse_techniques(char *list, struct auto_request *r)
{
    char *items[AUTO_MAX_TECHNIQUES];
    int n = split_list(list, items, AUTO_MAX_TECHNIQUES);
    for (int i = 0; i < n; i++) {
        int t = technique_from_name(items[i]);
        if (t < 0 || !technique_runs_steps((pf_technique)t))
            return -1;
        for (int j = 0; j < i; j++)
            if (r->techniques[j] == (pf_technique)t)
                return -1;
        r->techniques[i] = (pf_technique)t;
    }
    r->n_techniques = n;
    return n > 0 ? 0 : -1;
}

/* "2%" or "0.02": a fraction in (0, 1). */
static int parse_target(const char *text, double *out)
{
    char copy[64];
    size_t len = strlen(text);
    int pct = len > 0 && len < sizeof copy && text[len - 1] == '%';
    snprintf(copy, sizeof copy, "%.*s", (int)(pct ? len - 1 : len), text);
    if (parse_double(copy, 0, pct ? 100 : 1, out) != 0 || *out <= 0)
        return -1;
    *out /= pct ? 100 : 1;
    return *out < 1 ? 0 : -1;
}

static int parse_size_mib(const char *text, double *mib)
{
    int64_t bytes;
    if (parse_bytes(text, &bytes) != 0 || bytes <= 0 || strspn(text, "0123456789.") == strlen(text))
        return -1;
    *mib = bytes / 1048576.0;
    return 0;
}

/* One option's value into r; 0, or the usage message's exit status. */
static int take_option(int opt, const char *v, struct auto_request *r)
{
    char list[256];
    switch (opt) {
    case 't':
        snprintf(list, sizeof list, "%s", v);
        return parse_techniques(list, r) ? usage("--technique must list techniques that run steps, each once") : 0;
    case 's':
        return parse_long(v, 1, LIMIT_SEQ_LEN_MAX, &r->seq_len) ? usage("--seq-len must be 1 to 1000000") : 0;
    case 'o': r->dir = v; return 0;
    case 'p':
        return parse_long(v, AUTO_N_COARSE, SWEEP_MAX_LIST, &r->points) ? usage("--points must be 3 to 32") : 0;
    case 'T': return parse_seconds(v, &r->time_s) || r->time_s <= 0 ? usage("--time must be a duration: 90s, 15m, 2h") : 0;
    case 'g': return parse_target(v, &r->target) ? usage("--target must be a fraction or percentage: 0.02 or 2%") : 0;
    case 'b': return parse_size_mib(v, &r->budget_mib) ? usage("--budget must be a size with a unit: 8GiB") : 0;
    case 'm': return parse_size_mib(v, &r->mem_limit_mib) ? usage("--mem-limit must be a size with a unit: 8GiB") : 0;
    case 'P':
        return parse_seconds(v, &r->point_timeout_s) || r->point_timeout_s <= 0
                   ? usage("--point-timeout must be a duration: 90s, 15m, 2h")
                   : 0;
    case 'j': return parse_long(v, 0, LIMIT_THREADS_MAX, &r->threads) ? usage("--threads must be 0 or more") : 0;
    case 'a': r->attention = v; return attention_from_name(v) < 0 ? usage("--attention must be sdpa or eager") : 0;
    case 'd': r->device = v; return device_name_is_known(v) ? 0 : usage("--device: unknown device");
    case 'M':
        r->metric = !strcmp(v, "rss") ? METRIC_RSS : METRIC_TENSOR;
        return strcmp(v, "rss") && strcmp(v, "tensor") ? usage("--metric must be tensor or rss") : 0;
    case ':': return usage("an option needs a value");
    default: return usage("unknown option");
    }
}

int auto_parse_args(int argc, char **argv, struct auto_request *r)
{
    static const struct option opts[] = {
        {"technique", required_argument, NULL, 't'}, {"seq-len", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'},    {"points", required_argument, NULL, 'p'},
        {"time", required_argument, NULL, 'T'},      {"target", required_argument, NULL, 'g'},
        {"budget", required_argument, NULL, 'b'},    {"mem-limit", required_argument, NULL, 'm'},
        {"threads", required_argument, NULL, 'j'},   {"attention", required_argument, NULL, 'a'},
        {"device", required_argument, NULL, 'd'},    {"metric", required_argument, NULL, 'M'},
        {"point-timeout", required_argument, NULL, 'P'}, {0, 0, 0, 0}};
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:", opts, NULL)) != -1)
        if (take_option(opt, optarg, r) != 0)
            return EXIT_BAD_INPUT;
    if (optind != argc - 1 || !r->n_techniques || !r->seq_len || !r->dir)
        return usage(optind != argc - 1 ? "needs one MODEL" : "needs --technique, --seq-len and -o DIR");
    r->model_arg = argv[optind];
    if (!r->points)
        r->points = r->budget_mib > 0 ? AUTO_BUDGET_POINTS : AUTO_DEFAULT_POINTS;
    return 0;
}
