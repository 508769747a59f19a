/* hinge.c: splitting a measured peak into its forward/backward part and
 * its optimizer-step part. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include "fit/hinge.h"

int hinge_has_phases(const struct observation *o)
{
    for (int i = 0; i < PF_PHASE_COUNT; i++)
        if (!(o->phase_mib[i] > 0)) /* -1: unknown; a phase holds the weights at least */
            return 0;
    return 1;
}

void hinge_split(const struct observation *o, double metric_mib, struct hinge_point *out)
{
    double fb = fmax(o->phase_mib[PF_PHASE_FORWARD], o->phase_mib[PF_PHASE_BACKWARD]);
    double step = o->phase_mib[PF_PHASE_OPTIMIZER];
    double above = metric_mib - fmax(fb, step); /* not in live tensors: allocator cache, libraries */
    out->line_mib = fb + above;
    out->step_mib = step + above;
    out->step_binds = step > fb;
}

/* The mean of the step parts where the step bound, with its interval; where
 * it bound nowhere, the smallest step part (the memory above live tensors
 * grows with the batch, and the line set every measured peak anyway). */
void hinge_step(const struct hinge_point *pts, int n, double *p_step, double *ci95)
{
    double sum = 0, sq = 0, least = INFINITY;
    int k = 0;
    for (int i = 0; i < n; i++) {
        least = fmin(least, pts[i].step_mib);
        if (pts[i].step_binds)
            sum += pts[i].step_mib, k++;
    }
    *p_step = k ? sum / k : n ? least : NAN;
    for (int i = 0; i < n; i++)
        if (pts[i].step_binds)
            sq += (pts[i].step_mib - *p_step) * (pts[i].step_mib - *p_step);
    *ci95 = k > 1 ? gsl_cdf_tdist_Pinv(0.975, k - 1) * sqrt(sq / (k - 1) / k) : NAN;
}
