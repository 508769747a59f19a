/* slurm_cmd.h: `peakfit slurm SWEEP -o DIR [--partition P] [--gpus-per-task N]
 * [--time T] [--cpus-per-task N] [--chunk C] [--submit]`: an sbatch script
 * that runs the sweep as a Slurm job array, task K running `peakfit run
 * SWEEP -o DIR --point K --chunk C` on a shared file system. */
#ifndef PEAKFIT_SLURM_CMD_H
#define PEAKFIT_SLURM_CMD_H
#include "util/options.h"

/* slurm's options: the parser's table, its --help and synopsis. */
extern const struct opt_table slurm_options_table;
int slurm_main(int argc, char **argv);
#endif
