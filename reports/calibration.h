/* calibration.h: a plan calibrated by the user's own command (`--process
 * command`: calc, verify and grid --peaks). Where DIR holds a command job's
 * points (docs/own-script.md: its group key's measured_by is "command
 * HASH") beside the worker's group of the same settings, the plan is the
 * worker's fit over the whole grid plus the correction those points
 * measure: at each, the command's peak (its baseline and its peak above
 * it, in the plan's metric) less the worker fit's prediction there. Their
 * mean is added as one offset; its uncertainty for a new run, t (n - 1
 * dof) x their sd x sqrt(1 + 1/n) (the mean's error and the run's own
 * scatter about it), joins the fit's interval in quadrature. No process term
 * is added: the command is the user's process. The correction is carried
 * as a process term (reports/process_term.h) of proportional 0 over every
 * peak, so the plan's figure, its interval, its largest micro-batch and
 * verify's limit (the term's inverse) follow from it as from a Python
 * trainer's. */
#ifndef PEAKFIT_CALIBRATION_H
#define PEAKFIT_CALIBRATION_H
#include <stddef.h>
#include "fit/fit_set.h"
#include "reports/process_term.h"

/* Fewer points than this have no spread to put in the interval. */
#define CALIBRATION_POINTS_MIN 2

struct calibration {
    /* what the plan adds: offset the corrections' mean, sd a new run's
     * (new_run_mib) at n - 1 dof, proportional 0 over every peak */
    struct process_term term;
    const struct group_fit *command; /* the command's group (NULL: the plan is not calibrated) */
    int n;
    double mean_mib, sd_mib, se_mib, lo_mib, hi_mib; /* the corrections: mean, sd, the mean's standard error, range */
    /* how far a new run's correction lies from the mean: sd x sqrt(1 + 1/n),
     * the mean's error and the run's own (a plan predicts a new run) */
    double new_run_mib;
    int min_batch, max_batch, min_seq_len, max_seq_len; /* where the command's points were measured */
    /* how many of them lie where the worker's fit is set by its floor (the
     * optimizer step, not the activations): their correction is the
     * floor's, which a plan above the knee need not share */
    int on_floor;
    char words[300];                 /* what the plan's first line says */
};

/* Is c a command job's group of the same metric and settings as the
 * worker's group w (every axis of the group key but measured_by)? */
int group_peer_of(const struct group_fit *w, const struct group_fit *c);

/* The term a plan of g adds for process p, with in *words what the plan's
 * first line says: process_term_for's for the worker's own process and a
 * Python trainer's; for the command's (PROCESS_COMMAND) on the worker's
 * group, cal filled from its peer command group in set (want: the
 * measured_by that --measured-by names, NULL for the only one) and cal's
 * term; on a command's own group, its own process, nothing added. NULL
 * with err set (a bad-input message: the command is not there, measured
 * other settings, or fewer than CALIBRATION_POINTS_MIN points) where no
 * command can calibrate g. */
const struct process_term *plan_process_term(const struct fit_set *set, enum plan_process p,
                                             const struct group_fit *g, const char *want, struct calibration *cal,
                                             const char **words, char *err, size_t errlen);
#endif
