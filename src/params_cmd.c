/* params_cmd.c: `peakfit params MODEL`: what a model holds for a technique,
 * from the config's arithmetic (models/param_count.h), with nothing built:
 * it answers at once, in a few MB, even for a 70B config. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "models/model_spec.h"
#include "models/param_count.h"
#include "point/setting_options.h"
#include "sweeps/limits.h"
#include "core/technique.h"
#include "util/exit_status.h"
#include "util/options.h"
#include "src/params_cmd.h"

/* What params is asked: the technique, and the depth of a slice. */
struct params_args {
    pf_train_options t;
    int layers; /* 0: the config's */
};
#define PARAMS_FIELD(f) offsetof(struct params_args, t.f)

/* The settings' own options (point/setting_options.h). */
static const struct opt_row params_rows[] = {
    SETTING_OPTION("technique", .type = OPT_ENUM, .off = PARAMS_FIELD(technique), .def = "full",
                   .help = "the technique whose counts to print"),
    SETTING_OPTION("lora_rank", .type = OPT_INT, .off = PARAMS_FIELD(lora_rank)),
    SETTING_OPTION("lora_targets", .type = OPT_CUSTOM, .off = PARAMS_FIELD(lora_targets)),
    SETTING_OPTION("layers", .type = OPT_INT, .off = offsetof(struct params_args, layers)),
    SETTING_OPTION("optimizer", .type = OPT_ENUM, .off = PARAMS_FIELD(optimizer),
                   .help = "the optimizer, whose state optimizer_bytes is (AdamW two moments, SGD one)"),
};

const struct opt_table params_options = SETTING_OPTION_TABLE("params", "MODEL", params_rows, NULL);

/* What is wrong (why), or the synopsis alone for a bare `peakfit params`. */
static int params_usage(const char *why)
{
    if (why)
        fprintf(stderr, "peakfit params: %s\n", why);
    else
        opt_print_synopsis(&params_options, stderr);
    return EXIT_BAD_INPUT;
}

int params_main(int argc, char **argv)
{
    struct params_args a = {.t = {.learning_rate = DEFAULT_LEARNING_RATE}};
    const char *model;
    char why[1024];
    int n;
    if (argc < 2)
        return params_usage(NULL);
    if (opt_table_defaults(&params_options, &a, NULL, why, sizeof why) != 0 ||
        opt_parse_args(&params_options, argc, argv, &a, &model, 1, &n, why, sizeof why) != 0)
        return params_usage(why);
    if (n != 1)
        return params_usage("needs one MODEL");
    static struct model_spec spec;
    char err[1024];
    if (model_spec_hub_id_problem(model, model, err, sizeof err) != 0 ||
        model_spec_read(model, &spec, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (a.layers > spec.config.num_layers) {
        fprintf(stderr, "peakfit params: --layers %d is more than %s's %lld decoder layers\n", a.layers, spec.name,
                (long long)spec.config.num_layers);
        return EXIT_BAD_INPUT;
    }
    const pf_model_config config = pf_config_slice(&spec.config, a.layers);
    pf_model_stats st = model_footprint(&config, &a.t);
    printf("model %s\nfamily %s\nlayers %lld\ntechnique %s\noptimizer %s\nparams %lld\ntrainable_params %lld\n"
           "weight_bytes %lld\ngrad_bytes %lld\noptimizer_bytes %lld\n", spec.name, spec.family,
           (long long)config.num_layers, technique_name(a.t.technique), optimizer_name(a.t.optimizer),
           (long long)st.params, (long long)st.trainable_params, (long long)st.weight_bytes,
           (long long)st.grad_bytes, (long long)st.optimizer_bytes);
    return EXIT_DONE;
}
