/* plot.h: `peakfit plot DIR`: data files and a gnuplot script in DIR/plots,
 * then gnuplot (an external program) draws PNG and SVG charts from them.
 * The script stays there, so a user can edit it and run gnuplot again. */
#ifndef PEAKFIT_PLOT_H
#define PEAKFIT_PLOT_H
#include "fit/fit_set.h"

/* The charts, in order, by file name without extension. */
extern const int plot_chart_count;
const char *plot_chart_name(int chart);
/* NULL when the chart has something to draw for this fit set; else why
 * not ("no successful points", ...). plot leaves such a chart out. */
const char *plot_chart_empty(const struct fit_set *set, int chart);

/* Writes the data and script (even when gnuplot is missing) and draws the
 * charts that have something to draw. Returns an exit status
 * (util/exit_status.h) after saying what went wrong. */
int plot_write(const struct fit_set *set);
int plot_main(int argc, char **argv);
/* Is gnuplot on PATH? */
int plot_have_gnuplot(void);
#endif
