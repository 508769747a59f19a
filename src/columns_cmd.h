/* columns_cmd.h: `peakfit columns`: what each column of peaks.csv holds,
 * as Markdown (docs/peaks-csv.md is its output). */
#ifndef PEAKFIT_COLUMNS_CMD_H
#define PEAKFIT_COLUMNS_CMD_H

/* EXIT_DONE, or EXIT_BAD_INPUT for any argument. */
int columns_main(int argc, char **argv);
#endif
