/* phases.c: reading a point's per-phase peaks. */
#include <stddef.h>
#include "fit/phases.h"

int phases_known(const double *ph)
{
    for (int i = 0; ph && i < PF_PHASE_COUNT; i++)
        if (!(ph[i] > 0)) /* -1: unknown; a phase holds the weights at least */
            return 0;
    return ph != NULL;
}

int phases_on_floor(const double *ph)
{
    if (!phases_known(ph))
        return 0;
    double before = ph[PF_PHASE_FORWARD] > ph[PF_PHASE_BACKWARD] ? ph[PF_PHASE_FORWARD] : ph[PF_PHASE_BACKWARD];
    return before <= ph[PF_PHASE_OPTIMIZER] + PHASES_TIE_MIB;
}

int phase_of_peak(const double *ph)
{
    if (!phases_known(ph))
        return -1;
    int top = 0;
    for (int i = 1; i < PF_PHASE_COUNT; i++)
        if (ph[i] > ph[top])
            top = i;
    return top;
}

const char *phase_name(int phase)
{
    return phase >= 0 && phase < PF_PHASE_COUNT ? pf_phase_name((pf_phase)phase) : "";
}
