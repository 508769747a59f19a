/* hardware_here.c: this machine against a fit's. The CPU model is what
 * tells two machines apart here: the same SmolLM2-135M points peaked up
 * to 15% apart on two CPUs with the same libtorch and BLAS
 * (bench/results/machines.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proc/proc_stats.h"
#include "reports/hardware_here.h"

/* This machine's CPU: PEAKFIT_THIS_CPU where set (a container that
 * reports another model; the tests, whose fixtures were measured on one
 * CPU, run on any), else /proc/cpuinfo's model name. */
static void this_cpu(char *out, size_t size)
{
    const char *set = getenv("PEAKFIT_THIS_CPU");
    if (set && set[0])
        snprintf(out, size, "%s", set);
    else
        host_cpu_model(out, size);
}

int hardware_is_here(const struct hardware *hw, char *why, size_t size)
{
    char here[128];
    this_cpu(here, sizeof here);
    if (!hw->cpu_model[0] || strcmp(hw->cpu_model, here) == 0)
        return 1;
    snprintf(why, size, "measured on CPU %s; this machine's CPU is %s", hw->cpu_model, here);
    return 0;
}

double hardware_ram_mib_if_here(const struct observation *o)
{
    struct hardware hw;
    char why[400];
    hardware_of(o, &hw);
    long kib = host_memory_kib(HOST_MEMORY_TOTAL);
    return hw.cpu_model[0] && hardware_is_here(&hw, why, sizeof why) && kib > 0 ? kib / 1024.0 : -1;
}
