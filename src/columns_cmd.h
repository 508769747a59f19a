/* columns_cmd.h: `peakfit columns` and `peakfit keys`: what each column of
 * peaks.csv holds and what each key of a sweep file takes, as Markdown
 * (docs/peaks-csv.md and docs/sweeps.md's table are their output). */
#ifndef PEAKFIT_COLUMNS_CMD_H
#define PEAKFIT_COLUMNS_CMD_H

/* EXIT_DONE, or EXIT_BAD_INPUT for any argument. */
int columns_main(int argc, char **argv);
int keys_main(int argc, char **argv);
#endif
