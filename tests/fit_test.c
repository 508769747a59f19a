/* The fit recovers known F, A, B from noisy synthetic data (each within
 * its reported 95% interval), picks the quadratic model when B is large
 * and the line when B = 0, refuses B when seq_len does not vary, and its
 * standard error matches the closed form for a straight line. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>
#include "fit/group_fit.h"
#include "tests/check.h"

static struct observation points[200];
static const struct group_key key = {.model = "m", .device = "cpu", .technique = "full", .attention = "sdpa"};

/* peak = F + A*b*s + B*b*s^2 + N(0, noise), over b x s x 2 repeats. */
static struct observations synthetic(double F, double A, double B, double noise, const int *seqs, int n_seq,
                                     unsigned long seed)
{
    static const int batches[] = {1, 2, 4, 8, 16};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    int n = 0;
    for (int s = 0; s < n_seq; s++)
        for (int b = 0; b < 5; b++)
            for (int r = 0; r < 2; r++) {
                struct observation *o = &points[n++];
                memset(o, 0, sizeof *o);
                strcpy(o->model, "m");
                strcpy(o->device, "cpu");
                strcpy(o->technique, "full");
                strcpy(o->attention, "sdpa");
                o->batch = batches[b];
                o->seq_len = seqs[s];
                o->tokens = (double)o->batch * o->seq_len;
                o->rss_mib = F + A * o->tokens + B * o->tokens * o->seq_len + gsl_ran_gaussian(rng, noise);
                o->tensor_mib = -1;
                o->weight_mib = 100;
                o->grad_mib = 100;
                o->optimizer_mib = 200;
            }
    gsl_rng_free(rng);
    return (struct observations){.ok = points, .n_ok = n};
}

static int within_ci(const struct ols *f, int i, double truth)
{
    return fabs(f->c[i] - truth) <= ols_ci95(f, i);
}

static void quadratic_recovered(void)
{
    const int seqs[] = {64, 128, 256, 512};
    struct observations o = synthetic(500, 0.3, 0.0004, 3.0, seqs, 4, 1);
    struct group_fit g;
    CHECK(group_fit_run(&o, &key, METRIC_RSS, &g) == 0, "fit ran");
    CHECK(g.choice == CHOICE_QUADRATIC, "quadratic chosen: %s", g.reason);
    CHECK(within_ci(group_chosen(&g), 0, 500), "F %.3f +- %.3f", group_chosen(&g)->c[0], ols_ci95(group_chosen(&g), 0));
    CHECK(within_ci(group_chosen(&g), 1, 0.3), "A %.5f +- %.5f", group_chosen(&g)->c[1], ols_ci95(group_chosen(&g), 1));
    CHECK(within_ci(group_chosen(&g), 2, 0.0004), "B %.3g +- %.3g", group_chosen(&g)->c[2], ols_ci95(group_chosen(&g), 2));
    CHECK(ols_ci95(group_chosen(&g), 1) < 0.05, "A's interval is informative: %g", ols_ci95(group_chosen(&g), 1));
    CHECK(g.f_p < 1e-6, "F-test p %g", g.f_p);
    CHECK(g.loo_n == g.n && g.loo_rmse > 2 && g.loo_rmse < 6, "LOO RMSE %.2f near the noise (3)", g.loo_rmse);
    CHECK(fabs(g.overhead_mib - (group_chosen(&g)->c[0] - 400)) < 1e-9, "overhead = F - fixed costs");
    CHECK(fabs(group_per_sample(&g, 256) - (group_chosen(&g)->c[1] * 256 + group_chosen(&g)->c[2] * 65536)) < 1e-9, "A_sample");
}

static void linear_when_b_is_zero(void)
{
    const int seqs[] = {64, 128, 256, 512};
    struct observations o = synthetic(500, 0.3, 0, 3.0, seqs, 4, 2);
    struct group_fit g;
    group_fit_run(&o, &key, METRIC_RSS, &g);
    CHECK(g.choice == CHOICE_LINEAR, "linear chosen: %s", g.reason);
    CHECK(g.f_p >= 0.05, "F-test p %g", g.f_p);
    CHECK(within_ci(group_chosen(&g), 0, 500) && within_ci(group_chosen(&g), 1, 0.3), "F %.2f A %.5f", group_chosen(&g)->c[0], group_chosen(&g)->c[1]);
}

static void b_unidentified_when_seq_len_is_fixed(void)
{
    const int seqs[] = {256};
    struct observations o = synthetic(500, 0.3, 0.0004, 3.0, seqs, 1, 3);
    struct group_fit g;
    group_fit_run(&o, &key, METRIC_RSS, &g);
    CHECK(g.choice == CHOICE_LINEAR, "linear when s is fixed");
    CHECK(strstr(g.reason, "cannot be identified") != NULL, "reason: %s", g.reason);
    CHECK(isnan(g.f_p), "no F-test without a second seq_len");
    group_fit_free(&g);
}

/* For y = c0 + c1 x, se(c1) = sigma / sqrt(Sxx), sigma^2 = RSS / (n - 2). */
static void standard_error_closed_form(void)
{
    const int seqs[] = {128};
    struct observations o = synthetic(50, 0.1, 0, 5.0, seqs, 1, 4);
    struct group_fit g;
    group_fit_run(&o, &key, METRIC_RSS, &g);
    double mean = 0, sxx = 0;
    for (int i = 0; i < o.n_ok; i++)
        mean += o.ok[i].tokens / o.n_ok;
    for (int i = 0; i < o.n_ok; i++)
        sxx += (o.ok[i].tokens - mean) * (o.ok[i].tokens - mean);
    double se = sqrt(g.linear.rss / (o.n_ok - 2) / sxx);
    CHECK(fabs(sqrt(g.linear.cov[1][1]) - se) < 1e-9 * se + 1e-15, "se %g vs closed form %g",
          sqrt(g.linear.cov[1][1]), se);
}

/* Leave-one-out in closed form (the residual over 1 - leverage) equals
 * refitting without each point, as the fit did before at n fits' cost. */
static void leave_one_out_closed_form(void)
{
    const int seqs[] = {64, 128, 256, 512};
    struct observations o = synthetic(500, 0.3, 0.0004, 3.0, seqs, 4, 5);
    struct group_fit g, without;
    static struct observation rest[200];
    group_fit_run(&o, &key, METRIC_RSS, &g);
    CHECK(g.choice == CHOICE_QUADRATIC && !g.floor.found, "quadratic, no floor: %s", g.reason);
    for (int i = 0; i < g.n; i++) {
        int n = 0;
        for (int j = 0; j < o.n_ok; j++)
            if (j != i)
                rest[n++] = o.ok[j];
        struct observations r = {.ok = rest, .n_ok = n};
        group_fit_run(&r, &key, METRIC_RSS, &without);
        double refit = g.y[i] - ols_predict(group_chosen(&without), o.ok[i].tokens,
                                            o.ok[i].tokens * o.ok[i].seq_len);
        CHECK(fabs(g.loo_error[i] - refit) < 1e-6, "point %d: closed form %g, refit %g", i, g.loo_error[i], refit);
        group_fit_free(&without);
    }
    group_fit_free(&g);
}

int main(void)
{
    leave_one_out_closed_form();
    quadratic_recovered();
    linear_when_b_is_zero();
    b_unidentified_when_seq_len_is_fixed();
    standard_error_closed_form();
    CHECK_DONE();
}
