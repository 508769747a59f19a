/* plot_cmd.c: `peakfit plot DIR`: the charts in DIR/plots (plots/plot.c). */
#include <stdio.h>
#include "fit/fit_set.h"
#include "plots/plot.h"
#include "src/commands.h"
#include "util/exit_status.h"

int plot_main(int argc, char **argv)
{
    struct fit_set set;
    if (dir_operand_open("plot", argc, argv, &set) != EXIT_DONE)
        return EXIT_BAD_INPUT;
    int rc = plot_write(&set);
    if (rc == EXIT_DONE)
        fprintf(stderr, "peakfit: charts in %s/plots\n", argv[1]);
    fit_set_free(&set);
    return rc;
}
