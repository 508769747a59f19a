/* hardware_here.h: the machine a command runs on against the one a fit
 * was measured on (fit/hardware.h): calc and verify say when they differ,
 * and the report's budgets use this machine's RAM only where it measured. */
#ifndef PEAKFIT_HARDWARE_HERE_H
#define PEAKFIT_HARDWARE_HERE_H
#include <stddef.h>
#include "fit/hardware.h"

/* 1 when hw's CPU is this machine's (or hw names none: a file from before
 * the column); else 0, with "measured on CPU A; this machine's CPU is B"
 * in why. This machine's CPU: PEAKFIT_THIS_CPU where set, else
 * /proc/cpuinfo's. */
int hardware_is_here(const struct hardware *hw, char *why, size_t size);
/* This machine's RAM (MiB) where o was measured on its CPU, else -1. */
double hardware_ram_mib_if_here(const struct observation *o);
#endif
