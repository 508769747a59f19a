/* columns_cmd.h: `peakfit columns`, `peakfit keys` and `peakfit
 * placeholders`: what each column of peaks.csv holds, what each key of a
 * sweep file takes and what each placeholder of a command job stands for,
 * as Markdown (docs/peaks-csv.md, docs/sweeps.md's and docs/own-script.md's
 * tables are their output). */
#ifndef PEAKFIT_COLUMNS_CMD_H
#define PEAKFIT_COLUMNS_CMD_H

/* EXIT_DONE, or EXIT_BAD_INPUT for any argument. */
int columns_main(int argc, char **argv);
int keys_main(int argc, char **argv);
int placeholders_main(int argc, char **argv);
#endif
