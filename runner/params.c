/* params.c: builds a model as a worker would and prints what it holds. */
#include <stdio.h>
#include <string.h>
#include "models/model_spec.h"
#include "sweeps/technique.h"
#include "util/parse.h"
#include "runner/params.h"

static int parse_params_args(int argc, char **argv, pf_train_options *t)
{
    long rank;
    for (int i = 2; i < argc; i += 2) {
        if (i + 1 == argc)
            return -1; /* a flag without its value */
        const char *flag = argv[i], *v = argv[i + 1];
        int tech;
        if (strcmp(flag, "--technique") == 0 && (tech = technique_from_name(v)) >= 0)
            t->technique = (pf_technique)tech;
        else if (strcmp(flag, "--lora-rank") == 0 && parse_long(v, 1, 65536, &rank) == 0)
            t->lora_rank = (int)rank;
        else if (strcmp(flag, "--lora-targets") == 0 && (t->lora_targets = lora_targets_from_list(v)))
            continue;
        else
            return -1;
    }
    return 0;
}

int params_main(int argc, char **argv)
{
    pf_train_options t = {.technique = PF_TECH_FULL, .lora_rank = 8, .lora_targets = PF_LORA_Q | PF_LORA_V, .learning_rate = 1e-4};
    pf_model_config config;
    char err[600];
    if (argc < 2 || parse_params_args(argc, argv, &t) != 0) {
        fprintf(stderr, "usage: peakfit params MODEL [--technique T] [--lora-rank R] [--lora-targets q,v]\n");
        return 2;
    }
    if (model_spec_resolve(argv[1], &config, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return 2;
    }
    pf_model *model;
    pf_model_stats st;
    if (pf_init(0) != PF_OK || pf_model_new(&config, &t, 0, "cpu", &model) != PF_OK ||
        pf_model_stats_get(model, &st) != PF_OK) {
        fprintf(stderr, "peakfit: %s\n", pf_last_error());
        return 1;
    }
    printf("params %lld\ntrainable_params %lld\nweight_bytes %lld\n", (long long)st.params,
           (long long)st.trainable_params, (long long)st.weight_bytes);
    pf_model_free(model);
    return 0;
}
