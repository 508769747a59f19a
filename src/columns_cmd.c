/* columns_cmd.c: `peakfit columns`, the peaks.csv column table as Markdown. */
#include <stdio.h>
#include "src/columns_cmd.h"
#include "util/exit_status.h"
#include "util/peaks_columns_doc.h"

int columns_main(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "peakfit: columns takes no arguments (got \"%s\")\n", argv[1]);
        return EXIT_BAD_INPUT;
    }
    peaks_csv_markdown(stdout);
    return fflush(stdout) == 0 ? EXIT_DONE : EXIT_IO;
}
