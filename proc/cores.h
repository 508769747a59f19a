/* cores.h: a set of CPU cores, as the pool shares them out among its
 * slots and a worker is pinned to its slot's (proc/spawn.h). The system's
 * own set type stays in Linux's half, proc/platform_linux.c. */
#ifndef PEAKFIT_CORES_H
#define PEAKFIT_CORES_H

enum { PROC_CORES_MAX = 1024 }; /* as many as glibc's own set holds */

struct proc_cores {
    unsigned char bits[PROC_CORES_MAX / 8];
};

/* Inline: the system's halves read a set (proc/platform.h), and the set
 * calls them, so it must not be a file they call back into. */
static inline void proc_cores_clear(struct proc_cores *set)
{
    for (int i = 0; i < PROC_CORES_MAX / 8; i++)
        set->bits[i] = 0;
}

/* A core outside 0 ... PROC_CORES_MAX - 1 is not added. */
static inline void proc_cores_add(struct proc_cores *set, int core)
{
    if (core >= 0 && core < PROC_CORES_MAX)
        set->bits[core / 8] |= (unsigned char)(1u << (core % 8));
}

static inline int proc_cores_has(const struct proc_cores *set, int core)
{
    return core >= 0 && core < PROC_CORES_MAX && (set->bits[core / 8] >> (core % 8) & 1);
}

/* The cores this process may run on (Linux: its affinity; macOS: every
 * core online), into cores, at most max; the count, at least 1. */
int proc_cores_mine(int *cores, int max);
#endif
