/* cores.h: a set of CPU cores, as the pool shares them out among its
 * slots and a worker is pinned to its slot's (proc/spawn.h). The system's
 * own set type stays in Linux's half, proc/platform_linux.c. */
#ifndef PEAKFIT_CORES_H
#define PEAKFIT_CORES_H

enum { PROC_CORES_MAX = 1024 }; /* as many as glibc's own set holds */

struct proc_cores {
    unsigned char bits[PROC_CORES_MAX / 8];
};

void proc_cores_clear(struct proc_cores *set);
/* A core outside 0 ... PROC_CORES_MAX - 1 is not added. */
void proc_cores_add(struct proc_cores *set, int core);
int proc_cores_has(const struct proc_cores *set, int core);
/* The cores this process may run on (Linux: its affinity; macOS: every
 * core online), into cores, at most max; the count, at least 1. */
int proc_cores_mine(int *cores, int max);
#endif
