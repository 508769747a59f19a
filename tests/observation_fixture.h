/* observation_fixture.h: a synthetic measured point for the fit tests:
 * model m, cpu, full, sdpa, status ok, batch b at seq_len s, no GPU
 * figures; the caller sets its peaks. */
#ifndef PEAKFIT_OBSERVATION_FIXTURE_H
#define PEAKFIT_OBSERVATION_FIXTURE_H
#include <string.h>
#include "fit/observations.h"

/* Appends the point to o->ok (the caller sized it) and returns it. */
static inline struct observation *observation_fixture_add(struct observations *o, int b, int s)
{
    struct observation *ob = &o->ok[o->n_ok++];
    memset(ob, 0, sizeof *ob);
    strcpy(ob->model, "m"), strcpy(ob->device, "cpu"), strcpy(ob->technique, "full"), strcpy(ob->attention, "sdpa");
    strcpy(ob->status, "ok");
    ob->batch = b, ob->seq_len = s, ob->tokens = (double)b * s;
    ob->gpu_allocated_mib = ob->gpu_reserved_mib = ob->gpu_context_mib = -1;
    return ob;
}
#endif
