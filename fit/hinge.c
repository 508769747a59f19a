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

void hinge_step(const struct hinge_point *pts, int n, double *p_step, double *ci95)
{
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += pts[i].step_mib;
    *p_step = n ? sum / n : NAN;
    for (int i = 0; i < n; i++)
        sq += (pts[i].step_mib - *p_step) * (pts[i].step_mib - *p_step);
    *ci95 = n > 1 ? gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(sq / (n - 1) / n) : NAN;
}
