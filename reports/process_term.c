/* process_term.c: the table of what a Python trainer's process holds
 * beyond peakfit's worker at the same point, and its part in a plan. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "core/technique.h"
#include "reports/process_term.h"
#include "util/options.h"

static const char *const process_names[] = {
#define PLAN_PROCESS_NAME(e, name, words) name,
    PLAN_PROCESSES(PLAN_PROCESS_NAME)
#undef PLAN_PROCESS_NAME
};
static const char *const process_words[] = {
#define PLAN_PROCESS_WORDS(e, name, words) words,
    PLAN_PROCESSES(PLAN_PROCESS_WORDS)
#undef PLAN_PROCESS_WORDS
};
static const char *process_name_at(int i) { return process_names[i]; }
const struct opt_names plan_process_option_names = {process_name_at, PROCESS_COUNT, NULL, NULL};

#define PROCESS_TERM_SOURCE "bench/process-term.sh term, bench/results/process-term/term.txt"
/* A Python trainer (examples/transformers/train_step.py --build config: the
 * published SmolLM2-135M script's protocol, transformers' from_config, two
 * plain AdamW steps, sdpa, one thread) less peakfit's worker at the same
 * point and zero_grad, whole process against whole process (VmHWM,
 * baselines included: 339-349 MiB against 111), each in a fresh process:
 * offset + proportional x the worker's peak above its baseline, fitted by
 * least squares per technique class and zero_grad over SmolLM2-135M's full
 * training, full+ckpt and LoRA and Qwen2.5-0.5B's LoRA (term.txt lists the
 * pairs), each row with its residual sd (a row of few pairs: the sd pooled
 * over the rows). Full training's difference shrinks as the peak grows (the
 * worker's heap keeps more holes at large activations). The trainer's side
 * is run three times a point: its peak moves between runs (the worker's
 * does not), and the row carries that spread as a fraction of y (run_sd,
 * run_dof). The line holds between the worker's smallest and largest peak
 * above its baseline measured for the row (y_lo, y_hi); outside them the
 * term is the line's value at the nearer end, never extrapolated (full
 * training's falling line would go below zero past its range).
 * X(class, zero_grad, offset MiB, proportional, sd MiB, dof, run_sd, run_dof,
 * y_lo MiB, y_hi MiB), read from term.txt at build time. */
#include "process_term_rows.h" /* PYTHON_TERM_ROWS(X): term.txt's rows (the Makefile) */
static const struct process_term python_terms[] = {
#define PYTHON_TERM_ROW(cls, zero_grad, offset, prop, sd, dof, run_sd, run_dof, lo, hi)                        \
    {cls, zero_grad, offset, prop, sd, dof, run_sd, run_dof, lo, hi, PROCESS_TERM_SOURCE},
    PYTHON_TERM_ROWS(PYTHON_TERM_ROW)
#undef PYTHON_TERM_ROW
};
static const struct process_term zero_term = {NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, NULL};

/* A technique's class in the table: LoRA with or without checkpointing is
 * LoRA's (the frozen base dominates its heap); checkpointing of the whole
 * model is its own; every other (full, bf16, amp-bf16, inference) is full
 * training's. */
static const char *technique_class(const char *technique)
{
    int t = technique_from_name(technique);
    const pf_technique_info *info = pf_technique_info_of(t < 0 ? PF_TECH_COUNT : (pf_technique)t);
    return info->lora ? "lora" : info->checkpoint ? "full+ckpt" : "full";
}

/* The row of the class of g's technique at g's zero_grad (a file from
 * before the setting's column reads as its usual value, none:
 * fit/observations.c, fit/fit_json_read.c); NULL when term.txt has none. */
static const struct process_term *python_row(const struct group_fit *g)
{
    const char *cls = technique_class(g->key.technique);
    for (size_t i = 0; i < sizeof python_terms / sizeof python_terms[0]; i++)
        if (!strcmp(python_terms[i].technique_class, cls) && !strcmp(python_terms[i].zero_grad, g->key.zero_grad))
            return &python_terms[i];
    return NULL;
}

const struct process_term *process_term_for(enum plan_process p, const struct group_fit *g, const char **words)
{
    *words = process_words[p];
    if (p == PROCESS_WORKER)
        return &zero_term;
    if (strcmp(g->key.measured_by, "worker") != 0)
        return *words = "the command's own process", &zero_term;
    /* The term is the host heap's: a GPU plan is the device's memory, and
     * the allocator level is the same in any process (tensor peaks 1.0000). */
    if (g->metric == METRIC_RESERVED)
        return *words = "the GPU's memory: no process term", &zero_term;
    if (g->metric != METRIC_RSS)
        return *words = "the allocator level: no process term", &zero_term;
    const struct process_term *row = python_row(g);
    if (!row) /* term.txt measures every zero_grad: only a build from an older one gets here */
        return *words = "no process term measured for its zero_grad", &zero_term;
    return row;
}

/* Does the line's slope apply at y (inside the measured range)? */
static int on_line(const struct process_term *t, double y) { return y > t->y_lo_mib && y < t->y_hi_mib; }

double process_term_at(const struct process_term *t, double y)
{
    return t->offset_mib + t->proportional * fmin(fmax(y, t->y_lo_mib), t->y_hi_mib);
}

double process_term_pi95(const struct process_term *t, double y, double pi95)
{
    if (!t->technique_class || !isfinite(pi95))
        return pi95;
    double own = gsl_cdf_tdist_Pinv(0.975, t->dof) * t->sd_mib;
    double runs = t->run_dof > 0 ? gsl_cdf_tdist_Pinv(0.975, t->run_dof) * t->run_sd * fmax(y, 0) : 0;
    double scaled = (1 + (on_line(t, y) ? t->proportional : 0)) * pi95;
    return sqrt(scaled * scaled + own * own + runs * runs);
}

/* y + the term is y shifted by the term at an end outside the range, and
 * y (1 + proportional) + offset inside it: increasing (proportional > -1),
 * so each piece's inverse is tried in turn. */
double process_term_worker_limit(const struct process_term *t, double limit_mib)
{
    double below = limit_mib - process_term_at(t, t->y_lo_mib), above = limit_mib - process_term_at(t, t->y_hi_mib);
    if (below <= t->y_lo_mib)
        return below;
    if (above >= t->y_hi_mib)
        return above;
    return (limit_mib - t->offset_mib) / (1 + t->proportional);
}
