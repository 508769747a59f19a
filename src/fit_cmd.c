/* fit_cmd.c: `peakfit fit DIR`: the table on stdout, fit.csv,
 * fit-residuals.csv and fit.json in DIR (fit/fit_output.c). */
#include <stdio.h>
#include "fit/fit_output.h"
#include "fit/fit_set.h"
#include "src/commands.h"
#include "util/exit_status.h"

int fit_main(int argc, char **argv)
{
    struct fit_set set;
    if (dir_operand_open("fit", argc, argv, &set) != EXIT_DONE)
        return EXIT_BAD_INPUT;
    int rc = EXIT_BAD_INPUT;
    if (set.n_groups == 0) {
        fprintf(stderr, "peakfit: %s/peaks.csv: no successful points to fit\n", argv[1]);
    } else {
        fit_print_table(&set, stdout);
        rc = fit_write_files(&set) == 0 ? EXIT_DONE : EXIT_IO;
    }
    fit_set_free(&set);
    return rc;
}
