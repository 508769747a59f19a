/* The fit across depths from what `peakfit auto --slices` measures
 * (autosweep/auto_slice_choose.h): b = 1 and 2 at depths 1, 2 and 4, on
 * the floor, and two points above the knee at depth 1 alone. Backward's
 * line there is forward's plus an excess with no layer in it (the loss's
 * gradient over the logits), as Qwen2.5-0.5B's slices measure it; the fit
 * must carry that excess to the whole model's depth and recover its A to
 * the byte (the allocator level has no noise), say how it got it, and
 * leave a design that measured the rise at every depth to the full fit;
 * with no point above the knee, take the excess by arithmetic and say so. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "fit/depth_fit.h"
#include "fit/fit_set.h"
#include "tests/check.h"
#include "tests/observation_fixture.h"

enum { SEQ = 128, WHOLE = 30 }; /* smollm2-135m's depth: its preset gives the whole model's */
#define STATES(L) (2000.0 + 200.0 * (L))

/* Per layer and per token as Qwen2.5-0.5B's slices measure them (MiB). */
static double forward(double L, double T) { return 1500 + 100 * L + (1.17 + 0.1026 * L) * T; }
static double backward(double L, double T) { return forward(L, T) + 0.5796 * T; }
/* The floor: backward's line meets it at 850 tokens at every depth. */
static double optimizer(double L) { return backward(L, 850); }

/* The point at depth L and batch b as the worker reports it. */
static void observe(int L, int b, struct observations *into)
{
    struct observation *o = observation_fixture_add(into, b, SEQ);
    strcpy(o->warm, "0");
    strcpy(o->measured_by, "worker");
    strcpy(o->model_source, "smollm2-135m");
    snprintf(o->layers, sizeof o->layers, "%d", L);
    o->weight_mib = STATES(L) / 4;
    o->grad_mib = STATES(L) / 4;
    o->optimizer_mib = STATES(L) / 2;
    /* backward's own floor ties with the optimizer step's, as measured */
    double bwd = fmax(backward(L, o->tokens), optimizer(L));
    double ph[3] = {forward(L, o->tokens), bwd, optimizer(L)};
    for (int p = 0; p < 3; p++)
        o->phase_mib[p] = STATES(L) + ph[p];
    o->tensor_mib = STATES(L) + fmax(bwd, ph[0]);
    o->rss_mib = o->tensor_mib + 100 + 0.1 * o->tokens;
    for (int p = 0; p < 3; p++)
        o->phase_gpu_allocated_mib[p] = o->phase_gpu_reserved_mib[p] = -1;
}

/* The fit from slices of these points (depth, batch), or NULL. */
static const struct group_fit *fit(struct fit_set *set, struct observation *pts, const int (*at)[2], int n)
{
    *set = (struct fit_set){.obs = {.ok = pts}};
    for (int i = 0; i < n; i++)
        observe(at[i][0], at[i][1], &set->obs);
    set->groups = calloc(1, sizeof *set->groups);
    struct group_key k;
    group_key_of(&pts[0], &k);
    CHECK(group_fit_run(&set->obs, &k, METRIC_TENSOR, &set->groups[0]) == 0, "the depth-1 group");
    set->n_groups = 1;
    CHECK(depth_fits_add(&set->obs, &set->groups, &set->n_groups) == 0, "depth_fits_add");
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].from_slices && set->groups[i].metric == METRIC_TENSOR)
            return &set->groups[i];
    return NULL;
}

static void set_free(struct fit_set *set)
{
    for (int i = 0; i < set->n_groups; i++)
        group_fit_free(&set->groups[i]);
    free(set->groups);
}

int main(void)
{
    static struct observation pts[16];
    double whole_a = 1.17 + 0.1026 * WHOLE + 0.5796;
    /* What auto --slices measures: the rise at depth 1 alone. */
    static const int auto_points[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {4, 1}, {4, 2}, {1, 7}, {1, 8}};
    struct fit_set set;
    const struct group_fit *g = fit(&set, pts, auto_points, 8);
    CHECK(g != NULL, "no fit from slices");
    if (g) {
        CHECK(fabs(g->linear.c[1] / whole_a - 1) < 1e-6, "A %.6f, the whole model's %.6f", g->linear.c[1], whole_a);
        CHECK(strstr(g->reason, "the line the backward phase (forward's plus its excess above the knee, the same at "
                                "every depth)") != NULL, "reason: %s", g->reason);
    }
    set_free(&set);
    /* The rise measured at every depth (one point more than its four
     * coefficients): the full fit, no excess carried. */
    static const int deeper[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {4, 1}, {4, 2},
                                    {1, 7}, {1, 8}, {2, 7}, {2, 8}, {4, 8}};
    g = fit(&set, pts, deeper, 11);
    CHECK(g != NULL, "no fit from slices (two depths above the knee)");
    if (g) {
        CHECK(fabs(g->linear.c[1] / whole_a - 1) < 1e-6, "A %.6f, the whole model's %.6f", g->linear.c[1], whole_a);
        CHECK(!strstr(g->reason, "excess"), "reason: %s", g->reason);
    }
    set_free(&set);
    /* No point above the knee at all (a slice's knee too far to measure):
     * forward's line plus the logits' gradient by arithmetic, the preset's
     * vocabulary (49,152) x 4 bytes a token. */
    static const int floor_only[][2] = {{1, 1}, {1, 2}, {1, 3}, {2, 1}, {2, 2}, {2, 3}};
    g = fit(&set, pts, floor_only, 6);
    double by_arithmetic = 1.17 + 0.1026 * WHOLE + 49152 * 4 / 1048576.0;
    CHECK(g != NULL, "no fit from slices (no point above the knee)");
    if (g) {
        CHECK(fabs(g->linear.c[1] / by_arithmetic - 1) < 1e-6, "A %.6f, forward's + the logits' gradient %.6f",
              g->linear.c[1], by_arithmetic);
        CHECK(strstr(g->reason, "(forward's plus the logits' gradient by arithmetic, vocabulary x 4 bytes a token: too "
                                "few points above the knee)") != NULL, "reason: %s", g->reason);
    }
    set_free(&set);
    CHECK_DONE();
}
