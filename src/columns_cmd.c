/* columns_cmd.c: the reference tables printed from the code's own tables,
 * as Markdown: `peakfit columns`, the peaks.csv columns (docs/peaks-csv.md
 * is its output), and `peakfit keys`, the sweep file's keys (the table in
 * docs/sweeps.md), and `peakfit placeholders`, a command job's
 * placeholders (the table in docs/own-script.md). `make docs` writes them
 * into docs/. */
#include <stdio.h>
#include "point/command_job.h"
#include "src/columns_cmd.h"
#include "sweeps/sweep_keys.h"
#include "util/exit_status.h"
#include "settings/peaks_columns_doc.h"

static int print_table(int argc, char **argv, void (*markdown)(FILE *out))
{
    if (argc > 1) {
        fprintf(stderr, "peakfit: %s takes no arguments (got \"%s\")\n", argv[0], argv[1]);
        return EXIT_BAD_INPUT;
    }
    markdown(stdout);
    return fflush(stdout) == 0 ? EXIT_DONE : EXIT_IO;
}

int columns_main(int argc, char **argv) { return print_table(argc, argv, peaks_csv_markdown); }

int keys_main(int argc, char **argv) { return print_table(argc, argv, sweep_keys_markdown); }

int placeholders_main(int argc, char **argv) { return print_table(argc, argv, command_placeholders_markdown); }
