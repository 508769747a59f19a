/* The heap's gap with a per-sample term (fit/group_gap.c), proved on
 * synthetic groups: the allocator's peak F + A*T exact, RSS that plus
 * g0 + g1*T + g2*b and Gaussian noise, measured at two seq_lens (s = 128,
 * b 4-16; s = 256, b 2-8). The fit must recover g2 (inside its 95%
 * interval in about 95% of groups) and its 95% intervals for a new
 * measurement at shapes not measured (s 64-1024, b 1-32: up to 2x past
 * the largest batch) must cover 93-97% of the draws. With one seq_len the
 * term cannot be told from T: the fit has none (p = 2), and its intervals
 * at other shapes then miss more than 5% of the draws when g2 is large,
 * which is why the automated sweep's gap wants a second seq_len. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>
#include "fit/group_fit.h"
#include "tests/check.h"
#include "tests/observation_fixture.h"

enum { GROUPS = 600, HELD = 12, MAX_POINTS = 8 };

struct truth { double F, A, g0, g1, g2, noise; };

static double tensor(const struct truth *t, double b, double s) { return t->F + t->A * b * s; }
static double rss(const struct truth *t, double b, double s) { return tensor(t, b, s) + t->g0 + t->g1 * b * s + t->g2 * b; }

static struct truth draw_truth(gsl_rng *r)
{
    return (struct truth){.F = 500 + 1500 * gsl_rng_uniform(r), .A = 0.5 + 2.5 * gsl_rng_uniform(r),
                          .g0 = 20 + 180 * gsl_rng_uniform(r), .g1 = 0.2 + 0.6 * gsl_rng_uniform(r),
                          .g2 = 20 * gsl_rng_uniform(r), .noise = 5 + 35 * gsl_rng_uniform(r)};
}

/* The points at s = 128 and, with two_shapes, at s = 256 too. */
static int measure(gsl_rng *r, const struct truth *t, int two_shapes, struct observation *pts)
{
    static const int b128[] = {4, 8, 12, 16}, b256[] = {2, 4, 6, 8};
    struct observations o = {.ok = pts};
    for (int i = 0; i < 4; i++) {
        struct observation *p = observation_fixture_add(&o, b128[i], 128);
        p->tensor_mib = tensor(t, p->batch, 128), p->rss_mib = rss(t, p->batch, 128) + gsl_ran_gaussian(r, t->noise);
        if (!two_shapes) /* as many points, all at s = 128 */
            p = observation_fixture_add(&o, b128[i] + 2, 128);
        else
            p = observation_fixture_add(&o, b256[i], 256);
        p->tensor_mib = tensor(t, p->batch, p->seq_len);
        p->rss_mib = rss(t, p->batch, p->seq_len) + gsl_ran_gaussian(r, t->noise);
    }
    return o.n_ok;
}

struct tally { int groups, g2_inside, a_inside, draws, inside, one_shape_p2; };

/* Held-out draws at shapes not measured; returns how many fell inside. */
static int held_out(gsl_rng *r, const struct truth *t, const struct group_fit *g)
{
    static const double seqs[] = {64, 96, 160, 192, 384, 512, 1024};
    int inside = 0;
    for (int h = 0; h < HELD; h++) {
        double b = 1 + gsl_rng_uniform_int(r, 32), s = seqs[gsl_rng_uniform_int(r, 7)], pi;
        double predicted = group_predict(g, b, s, &pi), measured = rss(t, b, s) + gsl_ran_gaussian(r, t->noise);
        inside += fabs(measured - predicted) <= pi;
    }
    return inside;
}

static void fit(int n, struct observation *pts, struct group_fit *exact, struct group_fit *g)
{
    struct observations o = {.ok = pts, .n_ok = n};
    struct group_key key;
    group_key_of(&pts[0], &key);
    CHECK(group_fit_run(&o, &key, METRIC_TENSOR, exact) == 0 && group_chosen(exact), "tensor fit");
    CHECK(group_fit_run_hinted(&o, &key, METRIC_RSS, exact, g) == 0 && group_chosen(g), "rss fit");
    g->run_spread = 0; /* no spread between runs is drawn here (fit_between_runs_test.c) */
}

static void two_shapes(gsl_rng *r, struct tally *y)
{
    static struct observation pts[MAX_POINTS];
    struct truth t = draw_truth(r);
    struct group_fit exact, g;
    fit(measure(r, &t, 1, pts), pts, &exact, &g);
    CHECK(g.gap_model && g.gap.p == 3, "two seq_lens: a per-sample term (p %d)", g.gap.p);
    y->groups++;
    y->g2_inside += fabs(group_gap_per_sample(&g) - t.g2) <= ols_ci95(&g.gap, 2);
    y->a_inside += fabs(group_chosen(&g)->c[1] - (t.A + t.g1)) <= ols_ci95(group_chosen(&g), 1);
    y->draws += HELD;
    y->inside += held_out(r, &t, &g);
    group_fit_free(&exact), group_fit_free(&g);
}

/* One seq_len, g2 at least 15 MiB/sample: no term, and the narrow
 * interval misses the other shapes. */
static void one_shape(gsl_rng *r, struct tally *y)
{
    static struct observation pts[MAX_POINTS];
    struct truth t = draw_truth(r);
    t.g2 = 15 + 5 * gsl_rng_uniform(r);
    struct group_fit exact, g;
    fit(measure(r, &t, 0, pts), pts, &exact, &g);
    y->groups++;
    y->one_shape_p2 += g.gap_model && g.gap.p == 2 && group_gap_per_sample(&g) == 0;
    y->draws += HELD;
    y->inside += held_out(r, &t, &g);
    group_fit_free(&exact), group_fit_free(&g);
}

/* Two seq_lens without the term: the reason says why. A gap that falls
 * with T (g1 < 0) is held level; four points above the knee are too few. */
static void reasons(void)
{
    static struct observation pts[MAX_POINTS];
    struct truth t = {.F = 800, .A = 1.5, .g0 = 400, .g1 = -0.2, .g2 = 5, .noise = 0};
    struct observations o = {.ok = pts};
    static const int b[] = {4, 8, 12, 16};
    for (int i = 0; i < 4; i++)
        for (int s = 128; s <= 256; s += 128) {
            struct observation *p = observation_fixture_add(&o, b[i] / (s / 128), s);
            p->tensor_mib = tensor(&t, p->batch, s), p->rss_mib = rss(&t, p->batch, s);
        }
    struct group_fit exact, g;
    fit(o.n_ok, pts, &exact, &g);
    CHECK(g.gap.p == 2 && strstr(g.reason, "; no per-sample term: with it the gap falls with T"), "falling: %s",
          g.reason);
    group_fit_free(&exact), group_fit_free(&g);
    t.g1 = 0.5;
    fit(4, pts, &exact, &g); /* b 4 and 8 at both seq_lens */
    CHECK(g.gap.p == 2 && strstr(g.reason, "; no per-sample term: it needs 5 points above the knee"), "four: %s",
          g.reason);
    group_fit_free(&exact), group_fit_free(&g);
}

int main(void)
{
    reasons();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 18);
    struct tally two = {0}, one = {0};
    for (int i = 0; i < GROUPS; i++)
        two_shapes(r, &two);
    for (int i = 0; i < GROUPS / 4; i++)
        one_shape(r, &one);
    gsl_rng_free(r);
    double coverage = 100.0 * two.inside / two.draws, one_cov = 100.0 * one.inside / one.draws;
    printf("two seq_lens: %d groups, g2 inside its 95%% interval in %d, RSS's A in %d; %d held-out draws at other "
           "shapes: %.2f%% inside their 95%% prediction intervals\n", two.groups, two.g2_inside, two.a_inside,
           two.draws, coverage);
    printf("one seq_len: %d groups, %d without the term; %.2f%% of %d draws at other shapes inside\n", one.groups,
           one.one_shape_p2, one_cov, one.draws);
    CHECK(coverage >= 93 && coverage <= 97, "coverage %.2f%% outside 93-97%%", coverage);
    CHECK(two.g2_inside >= 0.92 * two.groups && two.g2_inside <= 0.98 * two.groups,
          "g2 inside its interval in %d of %d groups", two.g2_inside, two.groups);
    CHECK(two.a_inside >= 0.92 * two.groups, "RSS's A inside its interval in only %d of %d", two.a_inside, two.groups);
    CHECK(one.one_shape_p2 == one.groups, "one seq_len: a per-sample term in %d of %d groups",
          one.groups - one.one_shape_p2, one.groups);
    CHECK(one_cov < 93, "one seq_len, g2 >= 15: %.2f%% inside at other shapes (the term matters)", one_cov);
    CHECK_DONE();
}
