/* plot_charts.h: the charts plot draws, one row each (plot_charts.c). */
#ifndef PEAKFIT_PLOT_CHARTS_H
#define PEAKFIT_PLOT_CHARTS_H
#include <stdio.h>
#include "fit/group_fit.h"

/* Each chart: its file name, whether it has anything to draw (and why not),
 * and its part of the script. plot_chart_count rows (plots/plot.h). */
struct plot_chart {
    const char *name;
    int (*has_series)(const struct group_fit *const *g, int n);
    const char *empty_reason;
    void (*script)(FILE *f, const struct group_fit *const *g, int n);
    void (*canvas)(const struct group_fit *const *g, int n, int *w, int *h); /* NULL: 1100 x 640 */
};
extern const struct plot_chart plot_charts[];
#endif
