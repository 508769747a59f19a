/* cores.c: the cores this process may run on. */
#include "proc/cores.h"
#include "proc/platform.h"

int proc_cores_mine(int *cores, int max)
{
    int n = platform_cores(cores, max);
    if (n <= 0 && max > 0) {
        cores[0] = 0; /* none readable: the first core, as before */
        n = 1;
    }
    return n;
}
