/* RSS's spread between runs (fit/group_spread.c) proved on synthetic
 * groups. Each run of a group multiplies every peak it measures by its own
 * factor 1 + u (u ~ N(0, r / sqrt(2)): two runs of one point then differ by
 * r, relative sd), on top of a small noise per point. The fit sees one run
 * (its residuals cannot see u); each held-out draw is a run of its own.
 *   default: no replicates, so r is the default. The truth is the spread
 *     bench/results/rss-between-runs.txt measured, 1.046% on 21 degrees
 *     of freedom: each group's true r is one that measurement could have
 *     come from (1.046% * sqrt(21 / X), X ~ chi^2(21)). The interval with
 *     the term covers 93-97% of the draws, without it (run_spread = 0) at
 *     most 85%; a default far from the measurement fails too.
 *   replicates: r = 2.5%, four points measured again, each in a later run
 *     of its own: r comes from those pairs in most groups and the
 *     interval covers 93-97%.
 *   back to back: the same four points repeated within the fit's own run
 *     (no spread): r stays the default, never below it. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>
#include "fit/group_fit.h"
#include "tests/check.h"
#include "tests/synthetic_point.h"

enum { GROUPS = 400, HELD = 12, MAX_POINTS = 32, REPLICATES = 4, MEASURED_DOF = 21 };
#define MEASURED_SPREAD 0.01046

static const int batches[] = {1, 2, 3, 4, 6, 8, 12, 16};
enum { N_BATCHES = sizeof batches / sizeof batches[0] };

struct truth { double F, A, P, noise, run_sd; };
struct tally { int draws, inside, inside_without, groups, from_replicates, at_default, narrower; };
enum scenario { DEFAULT, REPLICATES_LATER, BACK_TO_BACK };

static double peak(const struct truth *t, double b, double s) { return fmax(t->P, t->F + t->A * b * s); }

static void observe(struct observation *o, double b, double s, double y) { synthetic_point(o, "sdpa", b, s, y); }

/* SmolLM2-like peaks: 2-12 GiB, a floor below a knee of 300-900 tokens. */
static struct truth draw_truth(gsl_rng *r, double run_rel)
{
    struct truth t = {.F = 1500 + 1000 * gsl_rng_uniform(r), .A = 1 + 2 * gsl_rng_uniform(r),
                      .noise = 2 + 6 * gsl_rng_uniform(r), .run_sd = run_rel / sqrt(2)};
    t.P = t.F + t.A * (300 + 600 * gsl_rng_uniform(r));
    return t;
}

/* One measurement at (b, s) in a run whose factor is 1 + u. */
static double measure(gsl_rng *r, const struct truth *t, double b, double s, double u)
{
    return peak(t, b, s) * (1 + u) + gsl_ran_gaussian(r, t->noise);
}

/* The fit's run at s = 256, and the replicates the scenario adds. */
static int sweep(gsl_rng *r, const struct truth *t, enum scenario sc, struct observation *pts)
{
    double u = gsl_ran_gaussian(r, t->run_sd);
    int n = 0;
    for (int b = 0; b < N_BATCHES; b++)
        observe(&pts[n++], batches[b], 256, measure(r, t, batches[b], 256, u));
    for (int k = 0; sc != DEFAULT && k < REPLICATES; k++) {
        double later = sc == REPLICATES_LATER ? gsl_ran_gaussian(r, t->run_sd) : u;
        int b = batches[2 * k + 1];
        observe(&pts[n++], b, 256, sc == BACK_TO_BACK ? pts[2 * k + 1].rss_mib : measure(r, t, b, 256, later));
    }
    return n;
}

static void held_out(gsl_rng *r, const struct truth *t, struct group_fit *g, struct tally *y)
{
    for (int h = 0; h < HELD; h++) {
        double b = 1 + gsl_rng_uniform_int(r, 24), pi, pi_without;
        double measured = measure(r, t, b, 256, gsl_ran_gaussian(r, t->run_sd));
        double predicted = group_predict(g, b, 256, &pi);
        double spread = g->run_spread;
        g->run_spread = 0;
        group_predict(g, b, 256, &pi_without);
        g->run_spread = spread;
        y->draws++;
        y->inside += fabs(measured - predicted) <= pi;
        y->inside_without += fabs(measured - predicted) <= pi_without;
        y->narrower += pi < pi_without;
    }
}

/* The group's true r: run_rel itself, or (run_rel = 0) one the bench's
 * measurement could have come from. */
static double true_spread(gsl_rng *r, double run_rel)
{
    return run_rel > 0 ? run_rel : MEASURED_SPREAD * sqrt(MEASURED_DOF / gsl_ran_chisq(r, MEASURED_DOF));
}

static struct tally run(enum scenario sc, double run_rel, unsigned long seed)
{
    static struct observation pts[MAX_POINTS];
    static const struct group_key key = {.model = "m", .device = "cpu", .technique = "full", .attention = "sdpa"};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    struct tally y = {0};
    for (int i = 0; i < GROUPS; i++) {
        struct truth t = draw_truth(r, true_spread(r, run_rel));
        struct observations o = {.ok = pts, .n_ok = sweep(r, &t, sc, pts)};
        struct group_fit g;
        CHECK(group_fit_run(&o, &key, METRIC_RSS, &g) == 0 && group_chosen(&g), "group %d: no fit", i);
        y.groups++;
        y.from_replicates += g.run_spread_from_replicates;
        y.at_default += g.run_spread == group_run_spread_default() && g.run_spread_dof == MEASURED_DOF;
        held_out(r, &t, &g, &y);
        group_fit_free(&g);
    }
    gsl_rng_free(r);
    return y;
}

static double pct(int k, int n) { return 100.0 * k / n; }

int main(void)
{
    double r0 = group_run_spread_default();
    struct tally d = run(DEFAULT, 0, 18), rep = run(REPLICATES_LATER, 0.025, 19), b2b = run(BACK_TO_BACK, 0, 20);
    printf("default r %.2f%%: %.2f%% of %d draws inside with the term, %.2f%% without; r at the default in %d of %d "
           "groups\n", 100 * r0, pct(d.inside, d.draws), d.draws, pct(d.inside_without, d.draws), d.at_default, d.groups);
    printf("replicates (r 2.50%%, %d pairs in later runs): %.2f%% inside, %.2f%% without; r from the replicates in "
           "%d of %d groups\n", REPLICATES, pct(rep.inside, rep.draws), pct(rep.inside_without, rep.draws),
           rep.from_replicates, rep.groups);
    printf("repeats back to back: r at the default in %d of %d groups, %.2f%% inside\n", b2b.at_default, b2b.groups,
           pct(b2b.inside, b2b.draws));
    CHECK(pct(d.inside, d.draws) >= 93 && pct(d.inside, d.draws) <= 97, "default: coverage %.2f%% outside 93-97%%",
          pct(d.inside, d.draws));
    CHECK(pct(d.inside_without, d.draws) <= 85, "default: %.2f%% inside without the term: the test cannot tell",
          pct(d.inside_without, d.draws));
    CHECK(d.at_default == d.groups, "default: r not the default in %d groups", d.groups - d.at_default);
    CHECK(pct(rep.inside, rep.draws) >= 93 && pct(rep.inside, rep.draws) <= 97,
          "replicates: coverage %.2f%% outside 93-97%%", pct(rep.inside, rep.draws));
    CHECK(rep.from_replicates >= 0.8 * rep.groups, "replicates: r from them in only %d of %d groups",
          rep.from_replicates, rep.groups);
    CHECK(d.narrower + rep.narrower + b2b.narrower == 0, "%d intervals narrower with the term than without",
          d.narrower + rep.narrower + b2b.narrower);
    CHECK(b2b.at_default == b2b.groups, "back to back: r below the default in %d groups", b2b.groups - b2b.at_default);
    CHECK_DONE();
}
