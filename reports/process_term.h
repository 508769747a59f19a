/* process_term.h: the user's process against peakfit's worker. The worker
 * measures its own process (libtorch loaded); a Python trainer at the same
 * point holds the interpreter, torch's, transformers' and peft's modules and
 * a heap that keeps more. A whole-process (RSS) plan for a Python trainer
 * adds the difference, measured per technique class, to the worker's fit,
 * and its spread to the interval, as a plan on another machine adds RSS's
 * spread between machines (fit/group_spread.h). */
#ifndef PEAKFIT_PROCESS_TERM_H
#define PEAKFIT_PROCESS_TERM_H
#include "fit/group.h"
#include "util/options.h"

/* Whose process a plan is for: X(enum, name --process takes, words the
 * plan's first line says). */
#define PLAN_PROCESSES(X)                                                         \
    X(PROCESS_WORKER, "worker", "peakfit's worker's own process")                 \
    X(PROCESS_PYTHON, "python", "a Python trainer's whole process")               \
    X(PROCESS_COMMAND, "command", "your command's process")
#define PLAN_PROCESS_ENUM(e, name, words) e,
enum plan_process { PLAN_PROCESSES(PLAN_PROCESS_ENUM) PROCESS_COUNT };
#undef PLAN_PROCESS_ENUM
/* The names for an option row (util/options.h), and the row of --process
 * that calc, verify and grid --peaks share: an int at off. */
extern const struct opt_names plan_process_option_names;
#define PLAN_PROCESS_OPTION_ROW(off)                                                                            \
    {"process", 0, "P", OPT_ENUM, (off), .names = &plan_process_option_names, .def = "python",                \
     .help = "whose whole process an RSS plan is for: python, a Python trainer's (the difference from the "     \
             "worker's measured per technique class, bench/results/process-term/term.txt); worker, peakfit's "  \
             "worker's own; command, your command job's: the worker's fit calibrated by the command's points "  \
             "at the worker's settings"}

/* What a plan adds for its process at the worker's peak y MiB above its
 * baseline: offset_mib + proportional * y for y in [y_lo_mib, y_hi_mib]
 * (the range measured), the value at the nearer end outside it, with a
 * residual sd of sd_mib known to dof degrees of freedom; and how far one
 * run of the process lies from its point's mean: run_sd x y, known to
 * run_dof degrees of freedom (a Python trainer's peak moves between runs of
 * one point; the worker's, and so its fit, does not). The zero term (no
 * class) where the process adds nothing or is not a Python trainer's. */
struct process_term {
    const char *technique_class; /* the row's class ("full", ...); "command": a calibration
                                  * (reports/calibration.h); NULL: the zero term */
    const char *zero_grad;       /* the loop's zero_grad the row was measured with (core/optimizer.h's
                                  * names); NULL but for a Python trainer's row */
    double offset_mib, proportional, sd_mib;
    int dof;
    double run_sd; /* a fraction of y */
    int run_dof;
    double y_lo_mib, y_hi_mib;
    const char *measured_by;     /* the benchmark and result that measured the row */
};

/* The term a plan of g for process p (the worker's or a Python trainer's;
 * the command's is reports/calibration.h's) adds, and in *words what the plan is
 * for (its first line): a Python trainer's row of g's technique class and
 * zero_grad (a loop that keeps its gradients through the next forward
 * leaves its heap unlike one that frees them) for an RSS fit measured by
 * the worker; else the zero term, *words saying why
 * (the worker's own process; a command job's fit, its own process; a GPU
 * fit, the device's memory; an allocator-level fit, the same in any
 * process). */
const struct process_term *process_term_for(enum plan_process p, const struct group_fit *g, const char **words);
/* The term at the worker's peak y MiB above its baseline. */
double process_term_at(const struct process_term *t, double y);
/* The 95% half-width pi95 of the worker's y, as the process's: scaled by
 * 1 + proportional where the line applies at y, the term's own spread and
 * its runs' spread at y added in quadrature. */
double process_term_pi95(const struct process_term *t, double y, double pi95);
/* The worker's peak above its baseline at which the process's reaches
 * limit_mib above the worker's baseline (the term's inverse). */
double process_term_worker_limit(const struct process_term *t, double limit_mib);
#endif
