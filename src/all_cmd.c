/* all_cmd.c: the whole pipeline from one sweep: run, then fit + plot +
 * report from the same fits. A missing gnuplot costs the charts only. */
#include <stdio.h>
#include "fit/fit_output.h"
#include "plots/plot.h"
#include "reports/report.h"
#include "runner/run_sweep.h"
#include "src/all_cmd.h"
#include "util/exit_status.h"

static int fitted_groups(const struct fit_set *set)
{
    int n = 0;
    for (int i = 0; i < set->n_groups; i++)
        n += group_chosen(&set->groups[i]) != NULL;
    return n;
}

int all_main(int argc, char **argv)
{
    struct run_options o;
    if (run_sweep_args_or_say(argc, argv, &o) != 0)
        return EXIT_BAD_INPUT;
    const char *dir = o.dir;
    int rc = run_sweep_with(&o);
    if (rc != EXIT_DONE)
        return rc;
    struct fit_set set;
    if (fit_set_open(dir, &set) != 0)
        return EXIT_IO;
    /* Charts and a report of no fit would be empty (gnuplot fails on an
     * empty plot command): say so and stop, keeping the measurements. */
    if (fitted_groups(&set) == 0) {
        fprintf(stderr, "peakfit: %s: nothing to fit (no technique but load has points enough to fit a "
                "line); the measurements are in %s/peaks.csv; no fit, chart or report written\n", dir, dir);
        fit_set_free(&set);
        return EXIT_NO_RESULT;
    }
    fit_print_table(&set, stdout);
    rc = fit_write_files(&set) == 0 ? EXIT_DONE : EXIT_IO;
    plot_write(&set);
    if (report_write(&set, NULL, 1) != 0)
        rc = EXIT_IO;
    fit_set_free(&set);
    return rc;
}
