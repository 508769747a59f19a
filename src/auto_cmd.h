/* auto_cmd.h: `peakfit auto MODEL --technique T[,T] --seq-len S -o DIR`:
 * the automated sweep. peakfit chooses the points (autosweep/auto_choose.h),
 * writes them as DIR/auto.sweep and measures them as `run` does, round
 * after round, until A is known to the target or the point or time budget
 * is spent; with --budget, until the largest micro-batch within it is found. */
#ifndef PEAKFIT_AUTO_CMD_H
#define PEAKFIT_AUTO_CMD_H

int auto_main(int argc, char **argv);
#endif
