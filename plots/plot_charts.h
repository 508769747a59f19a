/* plot_charts.h: the charts plot draws, one row each (plot_charts.c). */
#ifndef PEAKFIT_PLOT_CHARTS_H
#define PEAKFIT_PLOT_CHARTS_H
#include <stdio.h>
#include "fit/fit_set.h"
#include "fit/group_fit.h"

/* Each chart: its file name, whether it has anything to draw (and why not),
 * and its part of the script. plot_chart_count rows. */
struct plot_chart {
    const char *name;
    int (*has_series)(const struct group_fit *const *g, int n);
    const char *empty_reason;
    void (*script)(FILE *f, const struct group_fit *const *g, int n);
    void (*canvas)(const struct group_fit *const *g, int n, int *w, int *h); /* NULL: 1100 x 640 */
};
extern const struct plot_chart plot_charts[];
/* The charts, in order, by file name without extension. */
extern const int plot_chart_count;
const char *plot_chart_name(int chart);
/* NULL when the chart has something to draw for this fit set; else why
 * not ("no successful points", ...). plot leaves such a chart out. */
const char *plot_chart_empty(const struct fit_set *set, int chart);
#endif
