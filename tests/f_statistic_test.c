/* The F statistic of the b*s^2 term is never negative: the quadratic
 * model contains the line, so its residual sum of squares cannot be larger;
 * where rounding makes it so (16,000 points on a line printed a negative
 * F), the difference is no evidence: F = 0, p = 1, linear. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fit/group_fit.h"
#include "tests/check.h"
#include "tests/observation_fixture.h"

enum { N = 16000 };
static struct observation points[N];
static const struct group_key key = {.model = "m", .device = "cpu", .technique = "full", .attention = "sdpa"};

/* n points, batches 1.. at four seq_lens, peak = F + A*T + a tiny wobble. */
static void fit_line(double wobble, struct group_fit *g)
{
    static const int seqs[] = {64, 128, 256, 512};
    struct observations o = {.ok = points};
    for (int i = 0; i < N; i++) {
        struct observation *ob = observation_fixture_add(&o, 1 + i / 4, seqs[i % 4]);
        ob->rss_mib = 500 + 0.3 * ob->tokens + wobble * ((i * 7919) % 13 - 6);
        ob->tensor_mib = -1;
        ob->weight_mib = ob->grad_mib = 100, ob->optimizer_mib = 200;
    }
    CHECK(group_fit_run(&o, &key, METRIC_RSS, g) == 0, "fit ran");
}

int main(void)
{
    const double wobbles[] = {0, 1e-9, 1e-6};
    for (int k = 0; k < 3; k++) {
        struct group_fit g;
        fit_line(wobbles[k], &g);
        CHECK(!(g.f_stat < 0), "wobble %g: F = %g (%s)", wobbles[k], g.f_stat, g.reason);
        CHECK(!strstr(g.reason, "F=-"), "wobble %g: %s", wobbles[k], g.reason);
        CHECK(g.choice == CHOICE_LINEAR, "wobble %g: %s", wobbles[k], g.reason);
        group_fit_free(&g);
    }
    CHECK_DONE();
}
