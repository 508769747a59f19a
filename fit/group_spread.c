/* group_spread.c: RSS's spread between runs. A fit made from one run's
 * points sees in its residuals only what varies within that run; RSS at one
 * point also differs from one run to the next (the heap's layout), and a
 * plan is measured in another run. So RSS's interval for a new measurement
 * adds (r * prediction)^2 to its variance, r the relative sd of the
 * difference between two runs of one point: the group's own replicates
 * (the same batch and seq_len measured more than once) where they spread
 * more than the default, else the default. The allocator-level metrics
 * repeat to the byte and get none. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include "fit/group_spread.h"

/* SmolLM2-135M and Qwen2.5-0.5B on the CPU, 16 points measured in 2-4 runs
 * each (21 degrees of freedom): bench/rss-between-runs.py ->
 * bench/results/rss-between-runs.txt. Repeats back to back in one run
 * spread far less (b30 s128: 0.0003%), so replicates never narrow it. */
#define RSS_BETWEEN_RUNS 0.01046
#define RSS_BETWEEN_RUNS_DOF 21
/* Fewer replicate degrees of freedom than this tell too little. */
#define RUN_SPREAD_MIN_DOF 3

static int same_point(const struct group_fit *g, int i, int j)
{
    return g->points[i]->batch == g->points[j]->batch && g->points[i]->seq_len == g->points[j]->seq_len &&
           g->y[j] > 0;
}

/* Point i's replicates, if i is the first row of a repeated point: adds
 * the sum of squares of ln(y) about their mean to *ss; returns k - 1. */
static int replicates_of(const struct group_fit *g, int i, double *ss)
{
    double sum = 0;
    int k = 0;
    for (int j = 0; j < g->n; j++) {
        if (same_point(g, i, j) && j < i)
            return 0;
        if (same_point(g, i, j))
            sum += log(g->y[j]), k++;
    }
    for (int j = i; k > 1 && j < g->n; j++)
        if (same_point(g, i, j))
            *ss += (log(g->y[j]) - sum / k) * (log(g->y[j]) - sum / k);
    return k > 1 ? k - 1 : 0;
}

void group_run_spread(struct group_fit *g)
{
    g->run_spread = 0, g->run_spread_dof = 0, g->run_spread_pairs = 0, g->run_spread_replicates = NAN;
    g->run_spread_from_replicates = 0;
    if (g->metric != METRIC_RSS)
        return;
    double ss = 0;
    int dof = 0;
    for (int i = 0; i < g->n; i++)
        dof += g->y[i] > 0 ? replicates_of(g, i, &ss) : 0;
    g->run_spread_pairs = dof;
    g->run_spread_replicates = dof > 0 ? sqrt(2 * ss / dof) : NAN;
    g->run_spread_from_replicates = dof >= RUN_SPREAD_MIN_DOF && g->run_spread_replicates > RSS_BETWEEN_RUNS;
    g->run_spread = g->run_spread_from_replicates ? g->run_spread_replicates : RSS_BETWEEN_RUNS;
    g->run_spread_dof = g->run_spread_from_replicates ? dof : RSS_BETWEEN_RUNS_DOF;
}

double group_run_spread_default(void) { return RSS_BETWEEN_RUNS; }

/* Another machine's heap differs more than another run's: the same six
 * SmolLM2-135M full/sdpa points on an AMD EPYC and an Intel Xeon, same
 * libtorch 1.13 and OpenBLAS, differ by -1.8% to +7.7% (the root mean
 * square of ln(B/A), 6 pairs): bench/machines.py ->
 * bench/results/machines.txt. A plan on another CPU adds it. */
#define RSS_BETWEEN_MACHINES 0.0329
#define RSS_BETWEEN_MACHINES_DOF 6

double group_other_machine_pi95(const struct group_fit *g, double y, double pi95)
{
    if (g->metric != METRIC_RSS || !isfinite(pi95))
        return pi95;
    double machines = gsl_cdf_tdist_Pinv(0.975, RSS_BETWEEN_MACHINES_DOF) * RSS_BETWEEN_MACHINES * y;
    return sqrt(pi95 * pi95 + machines * machines);
}

double group_machine_spread(void) { return RSS_BETWEEN_MACHINES; }

double group_run_spread_pi95(const struct group_fit *g, double y)
{
    if (!(g->run_spread > 0) || g->run_spread_dof < 1)
        return 0;
    return gsl_cdf_tdist_Pinv(0.975, g->run_spread_dof) * g->run_spread * y;
}

/* Two variances, each known to so many degrees of freedom: one t quantile
 * for their sum, at the Welch-Satterthwaite degrees of freedom (each
 * half-width's own t, added in quadrature, would overstate it); never
 * narrower than the fit's own interval (where the fit has few dof, the
 * sum's larger dof could make it so). */
double group_interval_half(const struct group_fit *g, double fit_var, double y)
{
    double run_var = g->run_spread * y * g->run_spread * y;
    if (!(run_var > 0) || g->run_spread_dof < 1)
        return g->t975 * sqrt(fit_var);
    if (g->dof < 1 || !isfinite(fit_var))
        return NAN;
    double total = fit_var + run_var;
    double dof = total * total / (fit_var * fit_var / g->dof + run_var * run_var / g->run_spread_dof);
    return fmax(gsl_cdf_tdist_Pinv(0.975, dof) * sqrt(total), g->t975 * sqrt(fit_var));
}

void group_run_spread_describe(const struct group_fit *g, char *out, unsigned long size)
{
    if (!(g->run_spread > 0))
        snprintf(out, size, "none");
    else if (g->run_spread_from_replicates)
        snprintf(out, size, "%.2f%% (from the group's %d replicate pairs)", 100 * g->run_spread, g->run_spread_pairs);
    else if (g->run_spread_pairs > 0)
        snprintf(out, size, "%.2f%% (the default, bench/results/rss-between-runs.txt; the group's %d replicate "
                 "pair%s spread %.2f%%, %s)", 100 * g->run_spread, g->run_spread_pairs,
                 g->run_spread_pairs == 1 ? "" : "s", 100 * g->run_spread_replicates,
                 g->run_spread_pairs < RUN_SPREAD_MIN_DOF ? "too few" : "less");
    else
        snprintf(out, size, "%.2f%% (the default, bench/results/rss-between-runs.txt; no replicate points)",
                 100 * g->run_spread);
}
