/* commands.h: the command layer's entry points that have no header of
 * their own; each is one file in src/ (src/main.c's table names them all).
 * Each returns an exit status (util/exit_status.h). */
#ifndef PEAKFIT_COMMANDS_H
#define PEAKFIT_COMMANDS_H
#include "fit/fit_set.h"
#include "util/options.h"

/* `peakfit COMMAND DIR`'s operand: the usage on stderr unless argv is
 * COMMAND and one DIR, else DIR's fits (fit_set_open); EXIT_DONE (free set
 * then) or EXIT_BAD_INPUT (src/dir_operand.c). */
int dir_operand_open(const char *command, int argc, char **argv, struct fit_set *set);

int fit_main(int argc, char **argv);    /* src/fit_cmd.c */
int plot_main(int argc, char **argv);   /* src/plot_cmd.c */
int report_main(int argc, char **argv); /* src/report_cmd.c */
/* report's options: the parser's table, its --help and synopsis. */
extern const struct opt_table report_options;
int calc_main(int argc, char **argv);   /* src/calc_cmd.c */
int run_sweep_main(int argc, char **argv); /* src/run_cmd.c */
#endif
