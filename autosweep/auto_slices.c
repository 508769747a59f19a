/* auto_slices.c: the slices `peakfit auto` measures, and the whole model
 * from them (autosweep/auto_slices.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "autosweep/auto_args.h"
#include "autosweep/auto_slices.h"
#include "core/technique.h"
#include "fit/fit_set.h"
#include "models/param_count.h"
#include "proc/proc_stats.h"
#include "util/exit_status.h"

/* The depths measured: a layer, two, four; each below the config's own. */
static const int slice_depths[AUTO_MAX_DEPTHS] = {1, 2, 4};

double auto_slice_states_mib(const struct auto_request *r, const struct model_spec *spec, int d)
{
    pf_model_config c = pf_config_slice(&spec->config, d);
    double most = 0;
    for (int i = 0; i < r->n_techniques; i++) {
        pf_train_options o = auto_train_options(r, r->techniques[i]);
        pf_model_stats st = model_footprint(&c, &o);
        most = fmax(most, (double)(st.weight_bytes + st.grad_bytes + st.optimizer_bytes) / 1048576.0);
    }
    return most;
}

/* A slice leaves room here for its step's temporaries and activations at
 * b = 1 and 2 where its states are within 70 % of the memory free now,
 * less 1 GiB for everything else (Mistral-7B's 4 layers, 17 GiB of full
 * training's states, on a 23 GiB machine: no). */
static double room_for_states_mib(void)
{
    long kib = host_memory_kib(HOST_MEMORY_AVAILABLE);
    return kib > 0 ? 0.7 * (kib / 1024.0) - 1024 : INFINITY;
}

static int choose_depths(struct auto_request *r, const struct model_spec *spec, char *err, size_t errlen)
{
    int below = 0;
    double room = room_for_states_mib();
    r->n_depths = 0;
    for (int i = 0; i < AUTO_MAX_DEPTHS; i++) {
        if (slice_depths[i] >= spec->config.num_layers)
            continue;
        below++;
        double states = auto_slice_states_mib(r, spec, slice_depths[i]);
        if (states > room) {
            fprintf(stderr, "peakfit auto: --slices: %d layers of %s hold %.0f MiB of weights, gradients and "
                    "optimizer state, more than 70 %% of the memory free here less 1 GiB: not measured\n", slice_depths[i],
                    spec->name, states);
            continue;
        }
        r->depths[r->n_depths++] = slice_depths[i];
    }
    if (r->n_depths >= 2)
        return 0;
    if (below >= 2)
        snprintf(err, errlen, "--slices: a fit across depths needs two depths of %s whose states fit in 70 %% of the "
                 "memory free here less 1 GiB; %d of them do", spec->name, r->n_depths);
    else
        snprintf(err, errlen, "--slices: %s has %lld layers; a fit across depths needs two depths below it (1 and "
                 "2), so a model of 3 layers or more: measure it whole", spec->name,
                 (long long)spec->config.num_layers);
    return -1;
}

int auto_load_model(struct auto_request *r, struct model_spec *spec, char *err, size_t errlen)
{
    char whole[2048];
    int fits = model_spec_load(r->model_arg, spec, whole, sizeof whole) == 0;
    /* model_spec_read differs from model_spec_load only in not asking
     * whether the weights fit here: where it succeeds, that was the why. */
    if (!fits && (r->budget_mib > 0 || model_spec_read(r->model_arg, spec, err, errlen) != 0)) {
        snprintf(err, errlen, "%s", whole);
        return -1;
    }
    if (!fits && !r->slices) {
        fprintf(stderr, "peakfit auto: %s\npeakfit auto: measuring slices of it instead (--slices)\n", whole);
        r->slices = 1;
    }
    r->depths[0] = 0, r->n_depths = 1;
    if (r->slices && choose_depths(r, spec, err, errlen) != 0)
        return -1;
    /* Slices are fitted at the allocator level alone (RSS is not predicted
     * from them), which one step on a state made before it reaches: the
     * same points in about half the worker time. */
    if (r->slices && !r->settings.want[GROUP_AXIS_warm])
        r->settings.want[GROUP_AXIS_warm] = "1";
    auto_default_points(r);
    return 0;
}

/* The fit from slices of technique t for metric m, or NULL. */
static const struct group_fit *from_slices(const struct fit_set *set, const char *model, const char *t,
                                           enum metric m)
{
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (g->from_slices && g->metric == m && !strcmp(g->key.model, model) && !strcmp(g->key.technique, t))
            return g;
    }
    return NULL;
}

static void print_a(const char *t, const char *what, const struct group_fit *g)
{
    const struct ols *line = g ? group_chosen(g) : NULL;
    if (!line) {
        printf("%s: the whole model's %s: no fit from slices (%s)\n", t, what, g ? g->reason : "too few points");
        return;
    }
    double half = ols_ci95(line, 1);
    printf("%s: the whole model's %s = %.4f MiB/token", t, what, line->c[1]);
    if (isfinite(half) && line->c[1] > 0)
        printf(" +- %.2f%%", 100 * half / line->c[1]);
    /* key.layers is "30 (slices 1 2 4)" */
    int depth = atoi(g->key.layers);
    const char *from = strchr(g->key.layers, '(');
    printf(", %d layers from %.*s\n", depth, from ? (int)strcspn(from + 1, ")") : 0, from ? from + 1 : "");
}

int auto_slices_summary(const struct auto_request *r, const char *model, int depth)
{
    struct fit_set set;
    if (fit_set_open(r->dir, &set) != 0)
        return EXIT_BAD_INPUT;
    for (int i = 0; i < r->n_techniques; i++) {
        const char *t = technique_name(r->techniques[i]);
        char what[64];
        snprintf(what, sizeof what, "A (%s)", metric_name(r->metric));
        print_a(t, what, from_slices(&set, model, t, r->metric));
    }
    /* fit/depth_fit.c says why. */
    printf("RSS is not predicted from slices: the whole model's heap is not in them; plan for a GPU at the "
           "allocator level (calc --metric tensor), or measure the whole model for RSS\n");
    printf("the whole model (%d layers) is fitted from its slices: `peakfit calc %s --budget SIZE --metric tensor` "
           "plans with it\n", depth, r->dir);
    fit_set_free(&set);
    return EXIT_DONE;
}
