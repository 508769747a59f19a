/* plot.h: `peakfit plot DIR`: data files and a gnuplot script in DIR/plots,
 * then gnuplot (an external program) draws PNG and SVG charts from them.
 * The script stays there, so a user can edit it and run gnuplot again. */
#ifndef PEAKFIT_PLOT_H
#define PEAKFIT_PLOT_H
#include "fit/fit_set.h"

/* The charts, by file name without extension. */
extern const char *const plot_charts[];
extern const int plot_chart_count;

/* Returns 0 when the charts were drawn; -1 after saying why (the data and
 * script are written even when gnuplot is missing). */
int plot_write(const struct fit_set *set);
int plot_main(int argc, char **argv);
/* Is gnuplot on PATH? */
int plot_have_gnuplot(void);
#endif
