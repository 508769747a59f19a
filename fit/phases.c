/* phases.c: reading a point's per-phase peaks. */
#include "fit/phases.h"

int phases_known(const struct observation *o)
{
    for (int i = 0; i < PF_PHASE_COUNT; i++)
        if (!(o->phase_mib[i] > 0)) /* -1: unknown; a phase holds the weights at least */
            return 0;
    return 1;
}

int phases_on_floor(const struct observation *o)
{
    const double *ph = o->phase_mib;
    if (!phases_known(o))
        return 0;
    double before = ph[PF_PHASE_FORWARD] > ph[PF_PHASE_BACKWARD] ? ph[PF_PHASE_FORWARD] : ph[PF_PHASE_BACKWARD];
    return before <= ph[PF_PHASE_OPTIMIZER] + PHASES_TIE_MIB;
}

int phase_of_peak(const struct observation *o)
{
    if (!phases_known(o))
        return -1;
    int top = 0;
    for (int i = 1; i < PF_PHASE_COUNT; i++)
        if (o->phase_mib[i] > o->phase_mib[top])
            top = i;
    return top;
}

const char *phase_name(int phase)
{
    return phase >= 0 && phase < PF_PHASE_COUNT ? pf_phase_name((pf_phase)phase) : "";
}
