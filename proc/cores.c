/* cores.c: a set of cores as bits. */
#include <string.h>
#include "proc/cores.h"
#include "proc/platform.h"

void proc_cores_clear(struct proc_cores *set) { memset(set->bits, 0, sizeof set->bits); }

void proc_cores_add(struct proc_cores *set, int core)
{
    if (core >= 0 && core < PROC_CORES_MAX)
        set->bits[core / 8] |= (unsigned char)(1u << (core % 8));
}

int proc_cores_has(const struct proc_cores *set, int core)
{
    return core >= 0 && core < PROC_CORES_MAX && (set->bits[core / 8] >> (core % 8) & 1);
}

int proc_cores_mine(int *cores, int max)
{
    int n = platform_cores(cores, max);
    if (n <= 0 && max > 0) {
        cores[0] = 0; /* none readable: the first core, as before */
        n = 1;
    }
    return n;
}
