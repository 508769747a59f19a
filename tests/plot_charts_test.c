/* Which charts plot draws is decided over every group: the peak chart is
 * drawn when any group has a point, not only the first (a first group
 * without points hid it). */
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
    CHECK_DONE();
}
