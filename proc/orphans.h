/* orphans.h: what a command job leaves behind stays in reach. A process
 * whose parent ends goes to the nearest "child subreaper" above it, or to
 * init, out of any walk down from the command. So the command itself is a
 * subreaper (a double-forked or setsid grandchild stays below it: measured
 * by the tree walk, counted against mem_limit, killed with the tree), and
 * the runner is one too: what is still running when the command's own
 * process ends comes to the runner, which kills and reaps it at the
 * point's end. Linux 3.4 and later (PR_SET_CHILD_SUBREAPER); macOS has no
 * subreaper, and what a command leaves behind goes to launchd, out of the
 * walk (docs/measurement.md). */
#ifndef PEAKFIT_ORPHANS_H
#define PEAKFIT_ORPHANS_H
#include <sys/types.h>

/* Makes the calling process a child subreaper: 0, or -1 (errno). */
int orphans_adopt(void);
/* Kills every child of the runner's but the n in keep (the workers and
 * commands still running), each with its tree, and reaps every child that
 * has ended but those in keep. */
void orphans_kill(const pid_t *keep, int n);
#endif
