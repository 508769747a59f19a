/* Prediction intervals proved on synthetic groups: each group has a known
 * floor P, knee, F, A, B and Gaussian noise; the fit sees a grid of points
 * and predicts held-out draws off the grid (b up to 1.5x the largest
 * measured, seq_lens between the measured ones). The 95% intervals for a
 * new measurement must cover 93-97% of the draws, and the parameters must
 * be recovered (RSS's spread between runs left out: none is drawn; see
 * fit_between_runs_test.c): the floor found wherever it lifts a point clear of the
 * noise, A within its 95% interval in about 95% of
 * groups, P within a few noise widths. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>
#include "fit/group_fit.h"
#include "tests/check.h"
#include "tests/synthetic_point.h"

enum { GROUPS = 600, HELD = 12, MAX_POINTS = 64 };

static const int batches[] = {1, 2, 3, 4, 6, 8, 12, 16};
enum { N_BATCHES = sizeof batches / sizeof batches[0] };

struct truth { double F, A, B, P, noise; const int *seqs; int n_seq; };

static double peak(const struct truth *t, double b, double s)
{
    return fmax(t->P, t->F + t->A * b * s + t->B * b * s * s);
}

static void observe(struct observation *o, double b, double s, double y) { synthetic_point(o, "eager", b, s, y); }

/* Half the groups at one seq_len, half at three with a b*s^2 term half the
 * time; the knee between 300 and 900 tokens at s = 256. */
static struct truth draw_truth(gsl_rng *r, int i)
{
    static const int one[] = {256}, three[] = {128, 256, 512};
    struct truth t = {.F = 500 + 1500 * gsl_rng_uniform(r), .A = 0.2 + 2.8 * gsl_rng_uniform(r),
                      .noise = 2 + 28 * gsl_rng_uniform(r), .seqs = i % 2 ? three : one, .n_seq = i % 2 ? 3 : 1};
    t.B = t.n_seq > 1 && i % 4 == 1 ? t.A * (0.5 + gsl_rng_uniform(r)) / 512 : 0;
    double knee = 300 + 600 * gsl_rng_uniform(r);
    t.P = t.F + t.A * knee + t.B * knee * 256;
    return t;
}

struct tally { int draws, inside, groups, floors, detectable, detected, a_inside, p_close, n_above_min; double a_rel_err; };

static void held_out(gsl_rng *r, const struct truth *t, const struct group_fit *g, struct tally *y)
{
    for (int h = 0; h < HELD; h++) {
        double b = 1 + gsl_rng_uniform_int(r, 24);
        double s = t->n_seq > 1 ? 128 + (double)gsl_rng_uniform_int(r, 385) : t->seqs[0];
        double pi, measured = peak(t, b, s) + gsl_ran_gaussian(r, t->noise);
        double predicted = group_predict(g, b, s, &pi);
        y->draws++;
        y->inside += fabs(measured - predicted) <= pi;
    }
}

/* Does the floor lift some measured point over 3 noise widths above the
 * line? Only then can any fit tell it from noise. */
static int floor_detectable(const struct truth *t)
{
    for (int s = 0; s < t->n_seq; s++)
        for (int b = 0; b < N_BATCHES; b++) {
            double line = t->F + t->A * batches[b] * t->seqs[s] + t->B * batches[b] * t->seqs[s] * t->seqs[s];
            if (t->P - line > 3 * t->noise)
                return 1;
        }
    return 0;
}

static void one_group(gsl_rng *r, int i, struct tally *y)
{
    static struct observation pts[MAX_POINTS];
    static const struct group_key key = {.model = "m", .device = "cpu", .technique = "full", .attention = "eager"};
    struct truth t = draw_truth(r, i);
    int n = 0;
    for (int s = 0; s < t.n_seq; s++)
        for (int b = 0; b < N_BATCHES; b++)
            observe(&pts[n++], batches[b], t.seqs[s], peak(&t, batches[b], t.seqs[s]) + gsl_ran_gaussian(r, t.noise));
    struct observations o = {.ok = pts, .n_ok = n};
    struct group_fit g;
    CHECK(group_fit_run(&o, &key, METRIC_RSS, &g) == 0 && group_chosen(&g), "group %d: no fit", i);
    const struct ols *c = group_chosen(&g);
    /* these groups have no spread between runs: the fit's own interval is
     * tested here, RSS's term for it in fit_between_runs_test.c */
    g.run_spread = 0;
    y->groups++;
    y->floors += g.floor.found;
    y->detectable += floor_detectable(&t);
    y->detected += floor_detectable(&t) && g.floor.found;
    y->a_inside += fabs(c->c[1] - t.A) <= ols_ci95(c, 1);
    y->a_rel_err += fabs(c->c[1] - t.A) / t.A;
    y->p_close += g.floor.found && fabs(g.floor.p_mib - t.P) <= 3 * t.noise;
    y->n_above_min += g.n_above >= GROUP_FIT_ABOVE_MIN;
    held_out(r, &t, &g, y);
    group_fit_free(&g);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 18);
    struct tally y = {0};
    for (int i = 0; i < GROUPS; i++)
        one_group(r, i, &y);
    gsl_rng_free(r);
    double coverage = 100.0 * y.inside / y.draws;
    printf("%d groups, %d held-out draws: %.2f%% inside their 95%% prediction intervals\n", y.groups, y.draws, coverage);
    printf("floor found in %d of %d groups (%d of the %d where it lifts a point over 3 noise widths); P within 3 noise widths in %d; A inside its 95%% interval in %d "
           "(%.1f%%), mean |A error| %.2f%%\n", y.floors, y.groups, y.detected, y.detectable, y.p_close, y.a_inside,
           100.0 * y.a_inside / y.groups, 100 * y.a_rel_err / y.groups);
    CHECK(coverage >= 93 && coverage <= 97, "coverage %.2f%% outside 93-97%%", coverage);
    CHECK(y.detected >= 0.95 * y.detectable, "floor found in only %d of %d groups where it shows", y.detected,
          y.detectable);
    CHECK(y.p_close >= 0.95 * y.floors, "P within 3 noise widths in only %d of %d", y.p_close, y.floors);
    CHECK(y.a_inside >= 0.90 * y.groups, "A inside its interval in only %d of %d groups", y.a_inside, y.groups);
    CHECK(y.n_above_min == y.groups, "groups with fewer than 3 points above the knee: %d", y.groups - y.n_above_min);
    CHECK_DONE();
}
