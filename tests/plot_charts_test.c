/* Which charts plot draws is decided over every group: the peak chart is
 * drawn when any group has a point, not only the first (a first group
 * without points hid it). The throughput chart's axis does not follow the
 * timings: its ticks are six, at a round step, up to the fastest point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plots/plot_charts.h"
#include "tests/check.h"

static const struct plot_chart *chart(const char *name)
{
    for (int c = 0; c < plot_chart_count; c++)
        if (strcmp(plot_charts[c].name, name) == 0)
            return &plot_charts[c];
    return NULL;
}

/* The throughput script's "set ytics 0, STEP, TOP" for points of these
 * throughputs (tokens 1000 each); 0 where it has none. */
static int throughput_ticks(const struct plot_chart *c, const double *per_s, int n, double *step, double *top)
{
    static struct observation o[8];
    const struct observation *points[8];
    struct group_fit g = {.n = n, .points = points};
    const struct group_fit *groups[] = {&g};
    char script[8192] = "";
    for (int i = 0; i < n; i++) {
        o[i] = (struct observation){.tokens = 1000, .steps = 2, .step_mean_s = 1000 / per_s[i]};
        points[i] = &o[i];
    }
    FILE *f = tmpfile();
    if (!f)
        return 0;
    c->script(f, groups, 1);
    rewind(f);
    size_t len = fread(script, 1, sizeof script - 1, f);
    script[len] = '\0';
    fclose(f);
    const char *at = strstr(script, "set ytics 0, ");
    return at && sscanf(at, "set ytics 0, %lf, %lf", step, top) == 2;
}

static void check_throughput_axis(const struct plot_chart *c)
{
    /* one sweep's points as two machines' moments time them */
    const double slow[] = {812.0, 1533.0, 2104.5}, fast[] = {955.0, 1710.0, 2482.0}, tiny[] = {0.37, 0.9};
    double step, top, step2, top2;
    CHECK(throughput_ticks(c, slow, 3, &step, &top), "the throughput chart sets no ticks of its own");
    CHECK(throughput_ticks(c, fast, 3, &step2, &top2), "the throughput chart sets no ticks of its own");
    CHECK(step == 500 && top == 2500, "ticks for a fastest 2104.5 tokens/s: step %g to %g, expected 500 to 2500",
          step, top);
    CHECK(step2 == 500 && top2 == 2500, "ticks for a fastest 2482 tokens/s: step %g to %g, expected 500 to 2500",
          step2, top2);
    CHECK(throughput_ticks(c, tiny, 2, &step, &top) && step == 0.2 && top == 1,
          "ticks for a fastest 0.9 tokens/s: step %g to %g, expected 0.2 to 1", step, top);
}

int main(void)
{
    static struct group_fit empty, measured;
    measured.n = 3;
    const struct group_fit *first_empty[] = {&empty, &measured}, *none[] = {&empty, &empty};
    const struct plot_chart *peak = chart("peak_vs_tokens");
    CHECK(peak != NULL, "no peak_vs_tokens chart");
    if (peak) {
        CHECK(peak->has_series(first_empty, 2), "a first group without points hides the peak chart");
        CHECK(!peak->has_series(none, 2), "groups without points draw a peak chart");
    }
    const struct plot_chart *throughput = chart("throughput");
    CHECK(throughput != NULL, "no throughput chart");
    if (throughput)
        check_throughput_axis(throughput);
    CHECK_DONE();
}
