/* all_cmd.h: `peakfit all SWEEP -o DIR`: run, fit, plot and report. It
 * calls every other layer, so it lives at the top, beside main.c. */
#ifndef PEAKFIT_ALL_CMD_H
#define PEAKFIT_ALL_CMD_H

/* Exit status as util/exit_status.h; `run`'s status when the run does not
 * finish cleanly, EXIT_NO_RESULT when nothing could be fitted. */
int all_main(int argc, char **argv);
#endif
