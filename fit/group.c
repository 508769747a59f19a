/* group.c: what every part of a group fit reads: its metrics (each one's
 * name, peak, per-phase peaks and column), the chosen model, and the
 * model's value at a point. */
#include <math.h>
#include <stddef.h>
#include "fit/group.h"
#include "fit/phases.h"
#include "settings/peaks_columns.h"

const struct ols *group_chosen(const struct group_fit *g)
{
    return g->choice == CHOICE_LINEAR ? &g->linear : g->choice == CHOICE_QUADRATIC ? &g->quadratic : NULL;
}

/* Each metric: its name, its peak and which of peaks.csv's per-phase peaks
 * measure it (their offsets in struct observation), its peaks.csv column. The counting allocator's (the
 * CPU counter, forward_peak_mib...) are the host's live tensor bytes, which
 * the tensor metric counts and RSS holds, on a GPU row as on a CPU one; the
 * device allocator's (forward_gpu_allocated_peak_mib..., recorded by the
 * shim's phase guards on a GPU) measure allocated and reserved. A row
 * without a metric's phases infers no floor from them: a GPU metric never
 * takes the host's incidental allocations as its floor. */
static const struct {
    const char *name;
    size_t value_at;        /* its peak in struct observation */
    size_t phases_at;
    int column;             /* the peak's column in peaks.csv */
    const char *measured_as; /* what that column's figure is, in a sentence */
} metrics[METRIC_COUNT] = {
#define METRIC_ROW(name, value, phases, column, as) \
    {name, offsetof(struct observation, value), offsetof(struct observation, phases), PEAKS_COL_##column, as}
    [METRIC_RSS] = METRIC_ROW("rss", rss_mib, phase_mib, peak_above_baseline_mib, "above baseline"),
    [METRIC_TENSOR] = METRIC_ROW("tensor", tensor_mib, phase_mib, tensor_peak_mib, "of live tensors"),
    [METRIC_ALLOCATED] = METRIC_ROW("allocated", gpu_allocated_mib, phase_gpu_allocated_mib, gpu_allocated_peak_mib,
                                    "allocated on the GPU"),
    [METRIC_RESERVED] = METRIC_ROW("reserved", gpu_reserved_mib, phase_gpu_reserved_mib, gpu_reserved_peak_mib,
                                   "reserved on the GPU"),
#undef METRIC_ROW
};

const char *metric_name(enum metric m) { return m >= 0 && m < METRIC_COUNT ? metrics[m].name : "?"; }
int metric_peaks_column(enum metric m) { return m >= 0 && m < METRIC_COUNT ? metrics[m].column : -1; }
const char *metric_measured_as(enum metric m) { return m >= 0 && m < METRIC_COUNT ? metrics[m].measured_as : "?"; }

const double *metric_phases(const struct observation *o, enum metric m)
{
    return m >= 0 && m < METRIC_COUNT ? (const double *)((const char *)o + metrics[m].phases_at) : NULL;
}

int group_peak_phase(const struct group_fit *g, int i) { return phase_of_peak(metric_phases(g->points[i], g->metric)); }

double metric_value(const struct observation *o, enum metric m)
{
    return m >= 0 && m < METRIC_COUNT ? *(const double *)((const char *)o + metrics[m].value_at) : -1;
}

/* What the metric's peak comes on top of: the process's RSS baseline, or
 * on the device, the context and libraries outside the allocator. */
double group_metric_baseline(const struct observation *o, enum metric m)
{
    if (m == METRIC_ALLOCATED || m == METRIC_RESERVED)
        return o->gpu_context_mib > 0 ? o->gpu_context_mib : 0;
    return o->baseline_mib;
}

double group_bs2(const struct observation *p) { return (double)p->batch * p->seq_len * p->seq_len; }

double group_gap_per_sample(const struct group_fit *g)
{
    return g->gap_model && g->gap.p == 3 ? g->gap.c[2] : 0;
}

/* The prediction from a line fit f at point p: the larger of P and the line. */
double group_point_predict(const struct group_fit *g, const struct ols *f, const struct observation *p)
{
    double line = ols_predict(f, p->tokens, group_bs2(p)) + group_gap_per_sample(g) * p->batch;
    return g->floor.found ? fmax(line, floor_at(&g->floor, p->tokens)) : line;
}

/* x1 = T, x2 = b*s^2 for the points, all of them (all) or those above
 * the knee; returns how many. */
int group_design(const struct group_fit *g, int all, double *x1, double *x2, double *y)
{
    int n = 0;
    for (int i = 0; i < g->n; i++) {
        if (!all && g->on_floor[i])
            continue;
        x1[n] = g->points[i]->tokens;
        x2[n] = group_bs2(g->points[i]);
        y[n++] = g->y[i];
    }
    return n;
}

enum metric metric_exact_for(enum metric m)
{
    return m == METRIC_RSS ? METRIC_TENSOR : m == METRIC_RESERVED ? METRIC_ALLOCATED : METRIC_COUNT;
}
