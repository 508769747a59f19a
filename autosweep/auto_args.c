/* auto_args.c: `peakfit auto`'s option table (util/options.h) and its
 * command line into a struct auto_request. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "autosweep/auto_choose.h"
#include "autosweep/auto_sweep.h"
#include "autosweep/auto_args.h"
#include "core/attention.h"
#include "core/optimizer.h"
#include "core/device.h"
#include "sweeps/limits.h"
#include "core/technique.h"
#include "point/setting_options.h"
#include "util/options.h"
#include "util/parse.h"

#define AUTO_DEFAULT_POINTS 8
#define AUTO_BUDGET_POINTS 5

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

static int set_target(const struct opt_row *row, const char *display, const char *value, void *target,
                      void *ctx, char *why, size_t size)
{
    (void)ctx;
    if (parse_target(value, (double *)((char *)target + row->off)) == 0)
        return 0;
    snprintf(why, size, "%s must be a fraction or percentage: 0.02 or 2%%, not \"%s\"", display, value);
    return -1;
}

static const char *metric_name_at(int i) { return i == 0 ? "tensor" : "rss"; }
static const int metric_values[] = {METRIC_TENSOR, METRIC_RSS};
static const struct opt_names metric_names = {metric_name_at, 2, NULL, metric_values};

#define AUTO_FIELD(f) offsetof(struct auto_request, f)
/* A list axis's option (its flag, from the setting's row), its text into
 * the request's choice on that axis, checked as its sweep key reads it. */
#define AUTO_SETTING_ROW(ctype, field)                                                                            \
    SETTING_OPTION(#field, .type = OPT_TEXT,                                                                      \
                   .off = AUTO_FIELD(settings) + offsetof(struct group_choice, want) +                           \
                          GROUP_AXIS_##field * sizeof(const char *),                                              \
                   .flags = OPT_DEF_WORDS | OPT_GROUP_AXIS, .def = "the sweep key's"),

static const struct opt_row auto_rows[] = {
    SETTING_OPTION("technique", .arg = "T[,T...]", .type = OPT_ENUM, .off = AUTO_FIELD(techniques),
                   .flags = OPT_REQUIRED | OPT_LIST, .names = &stepping_technique_option_names,
                   .count_off = AUTO_FIELD(n_techniques), .size = sizeof(pf_technique),
                   .items = AUTO_MAX_TECHNIQUES, .help = "the techniques to measure, each once"),
    SETTING_OPTION("seq_len", .arg = "S[,S...]", .type = OPT_LONG, .off = AUTO_FIELD(seq_lens),
                   .flags = OPT_REQUIRED | OPT_LIST, .count_off = AUTO_FIELD(n_seq_lens), .size = sizeof(long),
                   .items = AUTO_MAX_SEQ_LENS,
                   .help = "sequence length(s): with two, RSS's fit gets the heap's per-sample term"),
    {"output", 'o', "DIR", OPT_TEXT, AUTO_FIELD(dir), .flags = OPT_REQUIRED,
     .help = "the directory for auto.sweep, peaks.csv and the results"},
    {"points", 0, "N", OPT_LONG, AUTO_FIELD(points), AUTO_N_COARSE, SWEEP_MAX_LIST, .flags = OPT_DEF_WORDS,
     .def = OPT_TEXT_OF(AUTO_DEFAULT_POINTS) "; " OPT_TEXT_OF(AUTO_BUDGET_POINTS) " with --budget",
     .help = "points per technique and seq_len (--slices measures the points its fit needs: "
             "autosweep/auto_slice_choose.h)"},
    {"time", 0, "T", OPT_DURATION, AUTO_FIELD(time_s), .help = "no round starts after this long (90s, 15m, 2h)"},
    {"target", 0, "2%", OPT_CUSTOM, AUTO_FIELD(target), .def = "2%", .set = set_target,
     .help = "A's relative 95% half-width to reach"},
    {"budget", 0, "SIZE", OPT_SIZE_MIB, AUTO_FIELD(budget_mib),
     .help = "find the largest micro-batch within this memory (8GiB)"},
    SETTING_OPTION("mem_limit", .type = OPT_SIZE_MIB, .off = AUTO_FIELD(mem_limit_mib)),
    SETTING_OPTION("timeout", .name = "point-timeout", .type = OPT_DURATION, .off = AUTO_FIELD(point_timeout_s),
                   .flags = OPT_DEF_WORDS, .def = "the sweep's"),
    SETTING_OPTION("threads", .type = OPT_LONG, .off = AUTO_FIELD(threads), .flags = OPT_DEF_WORDS,
                   .def = "0, libtorch's"),
    SETTING_OPTION("attention", .type = OPT_NAME, .off = AUTO_FIELD(attention)),
    SETTING_OPTION("device", .type = OPT_CUSTOM, .off = AUTO_FIELD(device), .set = device_option_set),
    {"metric", 0, "tensor|rss", OPT_ENUM, AUTO_FIELD(metric), .def = "tensor", .names = &metric_names,
     .help = "what A is fitted to"},
    {"slices", 0, NULL, OPT_FLAG, AUTO_FIELD(slices),
     .help = "measure the model cut to 1, 2 and 4 layers and fit the whole one from them (the default where the "
             "whole model's weights do not fit this machine), with `warm = 1` unless --warm is given: they fit the "
             "allocator level, which one step on a warm state reaches"},
    /* Each list axis whose value is a point's (lora_rank, warm, optimizer,
     * zero_grad...), from the table (settings/setting_rows.h). */
    SETTING_AXES(AUTO_SETTING_ROW)
};


const struct opt_table auto_options = SETTING_OPTION_TABLE("auto", "MODEL", auto_rows, NULL);

int auto_parse_args(int argc, char **argv, struct auto_request *r, char *why, size_t size)
{
    const char *model[2];
    int n;
    if (opt_table_defaults(&auto_options, r, NULL, why, size) != 0 ||
        opt_parse_args(&auto_options, argc, argv, r, model, 2, &n, why, size) != 0)
        return -1;
    if (n != 1) {
        snprintf(why, size, "needs one MODEL");
        return -1;
    }
    if (r->slices && r->budget_mib > 0) {
        snprintf(why, size, "--budget measures the whole model, --slices a cut of it: plan a budget from slices "
                            "with `peakfit calc DIR --budget SIZE`");
        return -1;
    }
    if (r->slices && r->metric == METRIC_RSS) {
        snprintf(why, size, "--slices fits the allocator level: RSS is not predicted from slices (the whole "
                            "model's heap is not in them); measure the whole model for RSS");
        return -1;
    }
    if (auto_settings_check(r, why, size) != 0)
        return -1;
    r->model_arg = model[0];
    r->seq_len = r->seq_lens[0];
    return 0;
}

void auto_default_points(struct auto_request *r)
{
    if (!r->points)
        r->points = r->budget_mib > 0 ? AUTO_BUDGET_POINTS : AUTO_DEFAULT_POINTS;
}
