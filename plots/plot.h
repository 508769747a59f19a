/* plot.h: the charts of `peakfit plot DIR` (src/plot_cmd.c): data files and a gnuplot script in DIR/plots,
 * then gnuplot (an external program) draws PNG and SVG charts from them.
 * The script stays there, so a user can edit it and run gnuplot again. */
#ifndef PEAKFIT_PLOT_H
#define PEAKFIT_PLOT_H
#include "fit/fit_set.h"
#include "plots/plot_charts.h" /* the charts: plot_chart_count, _name, _empty */

/* Writes the data and script (even when gnuplot is missing) and draws the
 * charts that have something to draw. Returns an exit status
 * (util/exit_status.h) after saying what went wrong. */
int plot_write(const struct fit_set *set);
/* Is gnuplot on PATH? */
int plot_have_gnuplot(void);
#endif
