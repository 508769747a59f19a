/* verify_cmd.h: `peakfit verify DIR --budget SIZE [--technique T --seq-len S]`:
 * the predicted largest micro-batch run for real under a memory limit equal
 * to the budget (it must fit), and the next size up (expected not to). */
#ifndef PEAKFIT_VERIFY_CMD_H
#define PEAKFIT_VERIFY_CMD_H

int verify_main(int argc, char **argv);
#endif
