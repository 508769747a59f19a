/* hardware.h: the machine a group was measured on, which a plan made from
 * its fit holds for: the CPU, the BLAS, the libtorch and, on a GPU, its
 * name and driver. fit.json, fit.csv and the report carry it; calc and
 * verify compare it with the machine they run on (reports/hardware_here.h). */
#ifndef PEAKFIT_HARDWARE_H
#define PEAKFIT_HARDWARE_H
#include <stddef.h>
#include "fit/observations.h"

/* HARDWARE_FIELDS(X): X(field, size), each named as its peaks.csv column,
 * fit.csv column and fit.json environment member. */
#define HARDWARE_FIELDS(X)  \
    X(cpu_model, 128)       \
    X(blas, 256)            \
    X(torch_version, 32)    \
    X(gpu_name, 128)        \
    X(driver_version, 64)

struct hardware {
#define HARDWARE_MEMBER(field, size) char field[size];
    HARDWARE_FIELDS(HARDWARE_MEMBER)
#undef HARDWARE_MEMBER
};

/* The hardware of an observation's row. */
void hardware_of(const struct observation *o, struct hardware *hw);
/* "CPU AMD EPYC, libtorch 1.13.0" or "NVIDIA H100 80GB HBM3, driver
 * 550.54, libtorch 2.4.0": what a report's title names. */
const char *hardware_title(const struct hardware *hw, char *out, size_t size);
#endif
