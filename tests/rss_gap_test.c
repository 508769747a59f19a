/* RSS fitted as the allocator-level fit plus the heap's gap
 * (fit/group_gap.c), on made-up points of the shapes measured for #18:
 *   - a tiny model whose RSS is mostly a fixed heap overhead (RSS over
 *     tensor 4.4 at b = 8): at b = 385 RSS is predicted on its line, not
 *     at 4.4 times the allocator's prediction (the old lower bound scaled
 *     the whole prediction by the least ratio measured above the knee);
 *   - Qwen2.5-0.5B's heap transition: just past the knee RSS's gap falls
 *     (b 6-8), and a free RSS line through those points had a slope below
 *     the allocator's; RSS's A is never below the allocator's A;
 *   - one token count on the floor (SmolLM2 at s = 256): RSS's floor rises
 *     in proportion to T over the allocator's floor, under the points
 *     measured above the knee, so a smaller T is predicted below it. */
#include <math.h>
#include "fit/group_fit.h"
#include "tests/observation_fixture.h"
#include "tests/check.h"

static void fit(const struct observations *o, struct group_fit *t, struct group_fit *r)
{
    struct group_key key;
    group_key_of(&o->ok[0], &key);
    CHECK(group_fit_run(o, &key, METRIC_TENSOR, t) == 0, "tensor fit");
    CHECK(group_fit_run_hinted(o, &key, METRIC_RSS, t, r) == 0, "rss fit");
}

static struct observation *add(struct observations *o, int b, int s, double tensor, double rss)
{
    struct observation *ob = observation_fixture_add(o, b, s);
    ob->tensor_mib = tensor, ob->rss_mib = rss;
    return ob;
}

static void tiny_model(void)
{
    static struct observation pts[4];
    struct observations o = {.ok = pts};
    for (int b = 1; b <= 8; b *= 2) {
        double t = b * 128.0, tensor = 2 + 0.01 * t;
        add(&o, b, 128, tensor, tensor + 40 + 0.002 * t);
    }
    struct group_fit t, r;
    fit(&o, &t, &r);
    double at = group_predict(&r, 385, 128, NULL), want = 2 + 40 + 0.012 * 385 * 128;
    CHECK(fabs(at - want) < 0.01 * want, "tiny model at b = 385: %g MiB, its line %g (the allocator's %g)", at, want,
          group_predict(&t, 385, 128, NULL));
    group_fit_free(&t), group_fit_free(&r);
}

/* Qwen2.5-0.5B's full points at s = 128 (MiB above baseline, measured). */
static void transition(void)
{
    static const double b[] = {1, 2, 4, 5, 6, 7, 8}, tensor[] = {8577.0, 8577.0, 8577.0, 8577.0, 8888.2, 9427.3, 9966.3},
                        rss[] = {8896.8, 9137.9, 9479.6, 9703.9, 9916.8, 10490.5, 10805.6};
    static struct observation pts[7];
    struct observations o = {.ok = pts};
    for (int i = 0; i < 7; i++) {
        struct observation *ob = add(&o, (int)b[i], 128, tensor[i], rss[i]);
        ob->phase_mib[PF_PHASE_BACKWARD] = tensor[i];
        ob->phase_mib[PF_PHASE_OPTIMIZER] = 8577.0;
    }
    struct group_fit t, r;
    fit(&o, &t, &r);
    double a_t = group_chosen(&t)->c[1], a_r = group_chosen(&r)->c[1];
    CHECK(t.floor.k == 4 && fabs(a_t - 4.211) < 0.001, "tensor: 4 on the floor, A %g", a_t);
    CHECK(a_r >= a_t - 1e-9, "RSS's A %g is not below the allocator's %g", a_r, a_t);
    CHECK(isfinite(ols_ci95(group_chosen(&r), 1)) && ols_ci95(group_chosen(&r), 1) > 0,
          "a level gap keeps its slope's interval: +-%g", ols_ci95(group_chosen(&r), 1));
    group_fit_free(&t), group_fit_free(&r);
}

static void one_floor_point(void)
{
    static const double b[] = {1, 2, 4, 8}, tensor[] = {2268.5, 2484.1, 3428.6, 5317.6},
                        rss[] = {2617.7, 2885.8, 4050.9, 6520.8};
    static struct observation pts[4];
    struct observations o = {.ok = pts};
    for (int i = 0; i < 4; i++) {
        struct observation *ob = add(&o, (int)b[i], 256, tensor[i], rss[i]);
        ob->phase_mib[PF_PHASE_FORWARD] = 0.8 * tensor[i];
        ob->phase_mib[PF_PHASE_BACKWARD] = tensor[i];
        ob->phase_mib[PF_PHASE_OPTIMIZER] = 2268.5;
    }
    struct group_fit t, r;
    fit(&o, &t, &r);
    /* the rise in proportion, (2617.7 - 2268.5) / 256 = 1.36 MiB/token, is
     * capped where b = 2 was measured: the floor passes under it */
    double rise = (2885.8 - 2617.7) / 256, at = group_predict(&r, 1, 128, NULL);
    CHECK(r.floor.k == 1 && r.floor.proportional, "one floor point, its rise proportional: k %d", r.floor.k);
    CHECK(fabs(r.floor.slope - rise) < 1e-9, "the rise capped under b = 2: %g, expected %g", r.floor.slope, rise);
    CHECK(fabs(at - (2617.7 - 128 * rise)) < 1e-6, "b1 s128 on the floor: %g", at);
    CHECK(r.dof == 4 - 2 - 1, "the proportional rise costs no dof: %d", r.dof);
    group_fit_free(&t), group_fit_free(&r);
}

int main(void)
{
    tiny_model();
    transition();
    one_floor_point();
    CHECK_DONE();
}
