/* plot_cmd.c: `peakfit plot DIR`: the charts in DIR/plots (plots/plot.c). */
#include <stdio.h>
#include "fit/fit_set.h"
#include "plots/plot.h"
#include "src/commands.h"
#include "util/exit_status.h"

int plot_main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit plot DIR\n");
        return EXIT_BAD_INPUT;
    }
    struct fit_set set;
    if (fit_set_open(argv[1], &set) != 0)
        return EXIT_BAD_INPUT;
    int rc = plot_write(&set);
    if (rc == EXIT_DONE)
        fprintf(stderr, "peakfit: charts in %s/plots\n", argv[1]);
    fit_set_free(&set);
    return rc;
}
