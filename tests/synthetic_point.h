/* synthetic_point.h: one synthetic measured point for the fit's tests
 * (coverage, spread between runs): RSS peak y at batch b and seq_len s of
 * model "m", full training on the cpu, with the attention given; no
 * allocator-level or per-phase peak, so the fit sees RSS alone. */
#ifndef PEAKFIT_TESTS_SYNTHETIC_POINT_H
#define PEAKFIT_TESTS_SYNTHETIC_POINT_H
#include <stdio.h>
#include <string.h>
#include "fit/observations.h"

static inline void synthetic_point(struct observation *o, const char *attention, double b, double s, double y)
{
    memset(o, 0, sizeof *o);
    strcpy(o->model, "m");
    strcpy(o->device, "cpu");
    strcpy(o->technique, "full");
    snprintf(o->attention, sizeof o->attention, "%s", attention);
    o->batch = (int)b;
    o->seq_len = (int)s;
    o->tokens = b * s;
    o->rss_mib = y;
    o->tensor_mib = o->gpu_allocated_mib = o->gpu_reserved_mib = -1;
    for (int k = 0; k < PF_PHASE_COUNT; k++)
        o->phase_mib[k] = -1;
}
#endif
