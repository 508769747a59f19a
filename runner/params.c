/* params.c: `peakfit params MODEL`: what a model holds for a technique,
 * from the config's arithmetic (models/param_count.h), with nothing built:
 * it answers at once, in a few MB, even for a 70B config. */
#include <stdio.h>
#include <string.h>
#include "models/model_spec.h"
#include "models/param_count.h"
#include "sweeps/limits.h"
#include "core/technique.h"
#include "util/exit_status.h"
#include "util/parse.h"
#include "runner/params.h"

static const char usage_text[] =
    "usage: peakfit params MODEL [--technique T] [--lora-rank R] [--lora-targets q,v]\n"
    "  MODEL: a preset, a config.json, or a folder holding one. Prints params,\n"
    "  trainable_params, weight_bytes, grad_bytes and optimizer_bytes (AdamW)\n"
    "  for the technique (default full).\n";

static int bad_option(const char *flag, const char *value, const char *expected)
{
    fprintf(stderr, "peakfit params: %s must be %s, not \"%s\"\n", flag, expected, value);
    return -1;
}

static int parse_params_args(int argc, char **argv, pf_train_options *t)
{
    long rank;
    for (int i = 2; i < argc; i += 2) {
        const char *flag = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int tech;
        if (strcmp(flag, "--technique") && strcmp(flag, "--lora-rank") && strcmp(flag, "--lora-targets")) {
            fprintf(stderr, "peakfit params: unknown option %s\n%s", flag, usage_text);
            return -1;
        }
        if (!v) {
            fprintf(stderr, "peakfit params: %s needs a value\n", flag);
            return -1;
        }
        if (strcmp(flag, "--technique") == 0) {
            if ((tech = technique_from_name(v)) < 0)
                return bad_option(flag, v, technique_names());
            t->technique = (pf_technique)tech;
        } else if (strcmp(flag, "--lora-rank") == 0) {
            if (parse_long(v, 1, LIMIT_LORA_RANK_MAX, &rank) != 0)
                return bad_option(flag, v, "a whole number from 1 to 65536");
            t->lora_rank = (int)rank;
        } else if (!(t->lora_targets = lora_targets_from_list(v))) {
            return bad_option(flag, v, "a list of q, k, v, o, gate, up, down");
        }
    }
    return 0;
}

int params_main(int argc, char **argv)
{
    pf_train_options t = {.technique = PF_TECH_FULL, .lora_rank = DEFAULT_LORA_RANK,
                         .lora_targets = DEFAULT_LORA_TARGETS, .learning_rate = DEFAULT_LEARNING_RATE};
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage_text, stdout);
        return EXIT_DONE;
    }
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_BAD_INPUT;
    }
    if (parse_params_args(argc, argv, &t) != 0)
        return EXIT_BAD_INPUT;
    static struct model_spec spec;
    char err[1024];
    if (model_spec_hub_id_problem(argv[1], argv[1], err, sizeof err) != 0 ||
        model_spec_read(argv[1], &spec, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    pf_model_stats st = model_footprint(&spec.config, &t);
    printf("model %s\nfamily %s\ntechnique %s\nparams %lld\ntrainable_params %lld\nweight_bytes %lld\n"
           "grad_bytes %lld\noptimizer_bytes %lld\n", spec.name, spec.family, technique_name(t.technique),
           (long long)st.params, (long long)st.trainable_params, (long long)st.weight_bytes,
           (long long)st.grad_bytes, (long long)st.optimizer_bytes);
    return EXIT_DONE;
}
