/* slices_optimizer_test: what the slices count for the optimizer's state
 * is the optimizer they ran. With SGD (one moment) the whole model fitted
 * from slices holds trainable parameters x 4 bytes of state, not AdamW's
 * two moments (it once counted AdamW's whatever ran: tiny's F 98.0
 * instead of 78.0 MiB), and auto --slices checks a slice's room with the
 * same state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "autosweep/auto_slices.h"
#include "fit/depth_fit.h"
#include "fit/fit_set.h"
#include "fit/group_fit.h"
#include "settings/group_key.h"
#include "models/model_spec.h"
#include "models/param_count.h"
#include "tests/check.h"
#include "tests/observation_fixture.h"

#define MIB (1024.0 * 1024.0)
#define SEQ 128

static const char *const model = "smollm2-135m";

/* The states by arithmetic of the model at depth L (0: its own) with optimizer. */
static double states_mib(int L, pf_optimizer optimizer, double *optimizer_mib)
{
    struct model_spec spec;
    char err[256];
    CHECK(model_spec_read(model, &spec, err, sizeof err) == 0, "%s: %s", model, err);
    pf_model_config c = pf_config_slice(&spec.config, L);
    pf_train_options o = {.technique = PF_TECH_FULL, .optimizer = optimizer};
    pf_model_stats st = model_footprint(&c, &o);
    if (optimizer_mib)
        *optimizer_mib = (double)st.optimizer_bytes / MIB;
    return (double)(st.weight_bytes + st.grad_bytes + st.optimizer_bytes) / MIB;
}

/* One point of a slice of depth L at batch b: a line in L and T above its states. */
static void observe(struct observations *obs, int L, int b, const char *optimizer)
{
    double opt, st = states_mib(L, optimizer_from_name(optimizer), &opt);
    struct observation *o = observation_fixture_add(obs, b, SEQ);
    strcpy(o->warm, "1");
    strcpy(o->measured_by, "worker");
    strcpy(o->optimizer, optimizer);
    strcpy(o->zero_grad, "none");
    strcpy(o->model_source, model);
    snprintf(o->layers, sizeof o->layers, "%d", L);
    o->optimizer_mib = opt;
    o->weight_mib = o->grad_mib = (st - opt) / 2;
    for (int p = 0; p < 3; p++) {
        o->phase_mib[p] = st + (p == 1 ? 1.0 : 0.7) * (50 + 5 * L + (0.3 + 0.1 * L) * o->tokens);
        o->phase_gpu_allocated_mib[p] = o->phase_gpu_reserved_mib[p] = -1;
    }
    o->tensor_mib = o->phase_mib[1];
    o->rss_mib = o->tensor_mib + 100;
}

/* The whole model's optimizer state as the fit from slices of optimizer's points counts it. */
static double whole_optimizer_mib(const char *optimizer)
{
    static const int depths[] = {1, 2, 4}, batches[] = {4, 8, 12, 16, 20};
    static struct observation pts[15];
    struct fit_set set = {.obs = {.ok = pts}};
    for (int d = 0; d < 3; d++)
        for (int b = 0; b < 5; b++)
            observe(&set.obs, depths[d], batches[b], optimizer);
    set.groups = calloc(3, sizeof *set.groups);
    for (int d = 0; d < 3; d++) {
        struct group_key k;
        group_key_of(&pts[d * 5], &k);
        CHECK(group_fit_run(&set.obs, &k, METRIC_TENSOR, &set.groups[set.n_groups]) == 0, "slice %d", d);
        set.n_groups++;
    }
    CHECK(depth_fits_add(&set.obs, &set.groups, &set.n_groups) == 0, "depth_fits_add");
    double opt = NAN;
    for (int i = 0; i < set.n_groups; i++)
        if (set.groups[i].from_slices)
            opt = set.groups[i].optimizer_mib;
    free(set.groups);
    return opt;
}

int main(void)
{
    double adamw, sgd;
    states_mib(0, PF_OPT_ADAMW, &adamw);
    states_mib(0, PF_OPT_SGD, &sgd);
    CHECK(fabs(adamw - 2 * sgd) < 1e-9, "AdamW keeps two moments, SGD one: %.3f, %.3f MiB", adamw, sgd);
    double from_sgd = whole_optimizer_mib("sgd"), from_adamw = whole_optimizer_mib("adamw");
    CHECK(fabs(from_sgd - sgd) < 1e-6, "slices run with sgd: the whole model's optimizer state %.3f MiB, not SGD's "
          "%.3f", from_sgd, sgd);
    CHECK(fabs(from_adamw - adamw) < 1e-6, "slices run with adamw: %.3f MiB, not AdamW's %.3f", from_adamw, adamw);

    /* auto --slices: a slice's room is checked with the state its sweep will run. */
    struct model_spec spec;
    char err[256];
    CHECK(model_spec_read(model, &spec, err, sizeof err) == 0, "%s: %s", model, err);
    struct auto_request r = {.techniques = {PF_TECH_FULL}, .n_techniques = 1, .device = "cpu"};
    r.settings.want[GROUP_AXIS_optimizer] = "sgd";
    double slice_sgd = auto_slice_states_mib(&r, &spec, 2), slice_sgd_opt;
    double want = states_mib(2, PF_OPT_SGD, &slice_sgd_opt);
    CHECK(fabs(slice_sgd - want) < 1e-6, "auto --slices --optimizer sgd: a 2-layer slice's states %.3f MiB, not "
          "SGD's %.3f", slice_sgd, want);
    r.settings.want[GROUP_AXIS_optimizer] = "auto";
    double slice_auto = auto_slice_states_mib(&r, &spec, 2);
    CHECK(fabs(slice_auto - states_mib(2, PF_OPT_ADAMW, NULL)) < 1e-6, "auto's optimizer on cpu: %.3f MiB", slice_auto);
    CHECK_DONE();
}
