/* run_sweep.h: `peakfit run SWEEP -o DIR`. */
#ifndef PEAKFIT_RUN_SWEEP_H
#define PEAKFIT_RUN_SWEEP_H

/* Exit status (util/exit_status.h): 0 when every point has a row, 2 for
 * bad input, 1 when the results cannot be written (or no point measured
 * this time succeeded), 130 when interrupted (SIGINT, SIGTERM, SIGHUP). */
int run_sweep_main(int argc, char **argv);
/* Reads "SWEEP -o|--output DIR" (argv[0] is the command's name); 0, or -1
 * after saying what is wrong. */
int run_sweep_args(int argc, char **argv, const char **sweep, const char **dir);
/* The same for a sweep path and output directory already known. */
int run_sweep(const char *sweep_path, const char *out_dir);
#endif
