/* calc_print.c: a plan's two outputs (`peakfit calc`, src/calc_cmd.c): a
 * few lines for people and one JSON object (jansson) for programs. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fit/fit_json.h"
#include "reports/calc.h"
#include "reports/calc_standalone.h"
#include "util/exit_status.h"
#include "util/json_rows.h"
#include "util/term_text.h"

/* What one replica holds against the single process: F's shift and the
 * terms sharding adds (reports/calc_shard.c). */
static void print_replica(const struct calc_request *req, const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    const struct replica_shift *s = &p->shift;
    printf("  on %ld replicas", req->replicas);
    if (req->zero > 0)
        printf(" under ZeRO-%ld", req->zero);
    printf(": F per replica %.1f MiB (unsharded %.1f MiB: weights %.1f, grads %.1f, optimizer state %.1f)\n",
           p->fixed_per_replica_mib, p->fixed_mib, g->weight_mib, g->grad_mib, g->optimizer_mib);
    if (req->zero > 0)
        printf("  optimizer state on the largest replica %.1f MiB\n", s->optimizer_held_mib);
    if (s->buckets_mib > 0)
        printf("  + DDP's gradient buckets %.1f MiB (a second copy of the gradients)\n", s->buckets_mib);
    if (s->root_mib > 0 || s->layer_mib > 0)
        printf("  + FSDP's unsharded root weights %.1f MiB, its whole gradients %.1f MiB more at the floor, "
               "a layer in flight %.1f MiB\n", s->root_mib, s->root_grads_mib, s->layer_mib);
}

/* "2-8", or "8" where the two ends are one. */
static const char *span(int lo, int hi, char *out, size_t size)
{
    if (lo == hi)
        snprintf(out, size, "%d", lo);
    else
        snprintf(out, size, "%d-%d", lo, hi);
    return out;
}

/* The calibration by the user's command (reports/calibration.h): the
 * correction, its spread and a new run's, and where it was measured. */
static void print_calibration(const struct calc_plan *p)
{
    const struct calibration *c = &p->calibration;
    char job[4 * sizeof c->command->points[0]->job];
    printf("  calibrated by %s (job %s): %+.1f MiB, the mean over its %d points of its peak less the worker fit's "
           "prediction there (%+.1f to %+.1f, sd %.1f MiB; a new run's, sd x sqrt(1 + 1/n), %.2f MiB at %d dof, in "
           "the interval in quadrature); no process term: the command is your process\n", c->command->key.measured_by,
           term_text(c->command->points[0]->job, job, sizeof job), c->mean_mib, c->n, c->lo_mib, c->hi_mib,
           c->sd_mib, c->new_run_mib, c->term.dof);
    char batches[32], seq_lens[32];
    if (p->micro_batch < c->min_batch || p->micro_batch > c->max_batch || p->seq_len < c->min_seq_len ||
        p->seq_len > c->max_seq_len)
        printf("  note: the command's points were measured at batch %s, seq_len %s: the correction is held as the "
               "same offset here\n", span(c->min_batch, c->max_batch, batches, sizeof batches),
               span(c->min_seq_len, c->max_seq_len, seq_lens, sizeof seq_lens));
    if (c->on_floor > 0 && !p->floor_binds)
        printf("  note: %d of the command's %d points lie on the worker fit's floor (the optimizer step sets the "
               "peak there, not the activations), and this plan is above the knee: their correction is the "
               "floor's; calibrate at points above the knee\n", c->on_floor, c->n);
}

/* What the plan's process adds to the worker's fit, where it adds anything. */
static void print_process(const struct calc_plan *p)
{
    const struct process_term *t = p->process;
    if (p->calibration.command) {
        print_calibration(p);
        return;
    }
    if (!t->technique_class)
        return;
    printf("  a Python trainer's process against peakfit's worker's: %+.1f MiB at this micro-batch (the term of "
           "%s at zero_grad %s: %.1f MiB %+.4f x the worker's peak above its baseline, sd %.1f MiB, %d dof; one run "
           "against its point's mean: sd %.2f%% of the worker's peak, %d dof, in the interval; %s); --process "
           "worker plans for the worker's own process\n", p->process_term_mib, t->technique_class, t->zero_grad,
           t->offset_mib, t->proportional, t->sd_mib, t->dof, 100 * t->run_sd, t->run_dof, t->measured_by);
    if (p->process_worker_mib < t->y_lo_mib || p->process_worker_mib > t->y_hi_mib)
        printf("  note: the worker's peak here, %.0f MiB above its baseline, is outside the %.0f-%.0f MiB the term "
               "was measured at: it is held at the nearer end's value, not extrapolated\n", p->process_worker_mib,
               t->y_lo_mib, t->y_hi_mib);
}

void calc_plan_print(const struct calc_request *req, const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    /* The key's and the CPU's names come from fit.json and the
     * environment: through the terminal's escaper, as every such text. */
    char text[400], key[1700], why[4 * sizeof p->other_machine_why], note[4 * sizeof g->flags];
    group_key_format(&g->key, text, sizeof text);
    term_text(text, key, sizeof key);
    term_text(p->other_machine_why, why, sizeof why);
    if (group_is_per_sample(g))
        printf("plan for %s, per sample (measured without a sequence: seq_len 1)", key);
    else
        printf("plan for %s, seq_len %ld", key, p->seq_len);
    printf(" (%s)\n", p->process_words);
    if (p->other_machine)
        printf("  ANOTHER MACHINE: the fit was %s; RSS differs between machines (sd %.1f%% of the peak, "
               "bench/results/machines.txt): its interval adds that spread\n", why,
               100 * group_machine_spread());
    printf("  budget %.0f MiB, margin %.0f%%: usable %.0f MiB (baseline %.0f MiB included)\n",
           req->budget_mib, req->margin * 100, p->usable_mib, g->baseline_mib);
    print_process(p);
    if (g->metric == METRIC_RESERVED)
        printf("  on the GPU: planned against the caching allocator's reserved peak plus the context outside it "
               "(the baseline above), what runs out first on the device\n");
    printf("  fit: %s, F = %.1f MiB, activations %.4g MiB per sample at s=%ld\n",
           group_chosen(g)->p == 3 ? "quadratic" : "linear", group_chosen(g)->c[0], p->per_sample_mib, p->seq_len);
    if (req->replicas > 1)
        print_replica(req, p);
    const char *batch = p->training ? "micro-batch" : "batch";
    if (p->max_micro_batch > 0)
        printf("  largest %s that fits within its 95%% interval: b = %ld", batch, p->max_micro_batch);
    else if (p->max_micro_batch_estimate > 0)
        printf("  no %s fits within its 95%% interval", batch);
    else
        printf("  not even %s 1 fits this budget", batch);
    if (p->max_micro_batch_estimate != p->max_micro_batch)
        printf(" (at the estimate: b = %ld)", p->max_micro_batch_estimate);
    printf("\n");
    if (p->training) {
        printf("  micro-batch b = %ld, accumulation steps a = %ld, replicas g = %ld\n", p->micro_batch, p->accum,
               req->replicas);
        printf("  effective batch E = b x a x g = %ld x %ld x %ld = %ld\n", p->micro_batch, p->accum, req->replicas,
               p->effective_batch);
    } else {
        printf("  batch b = %ld (%s does not train: no accumulation, no effective batch)\n", p->micro_batch,
               term_text(g->key.technique, key, sizeof key));
    }
    printf("  activation memory M = b x A_sample = %.1f MiB\n", p->activation_mib);
    printf("  predicted peak %.1f MiB (95%% prediction interval +- %.1f): %s\n", p->predicted_mib,
           p->predicted_ci95_mib, plan_outcome_words(p->outcome));
    if (!isfinite(p->predicted_ci95_mib))
        printf("  warning: no prediction interval (%d residual degrees of freedom): nothing is known to fit\n",
               g->dof);
    if (g->floor.found)
        printf("  set by: %s (peak = max(floor P %.1f MiB, F + A x T); %d points on the floor, %d above the knee)\n",
               p->floor_binds ? "the floor" : "the line", g->floor.p_mib, g->floor.k, g->n_above);
    if (g->n_above < GROUP_FIT_ABOVE_MIN)
        printf("  warning: only %d measured point%s above the knee (fewer than %d): the plan rests on too little; "
               "measure larger batches\n", g->n_above, g->n_above == 1 ? "" : "s", GROUP_FIT_ABOVE_MIN);
    if (p->past_tokens)
        printf("  EXTRAPOLATION: b x s = %.0f tokens, over %d times the largest measured (%.0f)\n",
               (double)p->micro_batch * (double)p->seq_len, CALC_EXTRAPOLATION_FACTOR, g->max_tokens);
    if (g->flags[0])
        printf("  warning: poor fit: %s\n", term_text(g->flags, note, sizeof note));
    if (p->far_extrapolated)
        printf("  warning: far outside the measured range (over %d times the largest batch or seq_len measured)\n",
               CALC_FAR_FACTOR);
    if (p->training && req->target_batch > 0 && p->effective_batch != req->target_batch)
        printf("  note: no micro-batch that fits makes b x a x g exactly %ld\n", req->target_batch);
    if (p->extrapolated)
        printf("  note: outside the measured range (batch %d-%d, seq_len %d-%d): an extrapolation\n",
               g->min_batch, g->max_batch, g->seq_lens[0], g->seq_lens[g->n_seq - 1]);
    if (p->linear_seq_len_beyond)
        printf("  note: seq_len %ld is past the measured %d and the fit has no b x s^2 term (%s): it assumes "
               "activations grow linearly with seq_len; attention that keeps [b, heads, s, s] scores grows faster\n",
               p->seq_len, g->seq_lens[g->n_seq - 1], term_text(g->reason, note, sizeof note));
}

void plan_batch_json(json_t *o, const struct plan_batch *b)
{
    const struct json_row batch[] = {
        JROW_REAL("per_sample_mib", b->per_sample_mib),
        JROW_INT("micro_batch", b->micro_batch),
        JROW_REAL("activation_mib", b->activation_mib),
    };
    const struct json_row accumulation[] = { /* no accumulation without training */
        JROW_INT("accum_steps", b->accum),
        JROW_INT("replicas", b->replicas),
        JROW_INT("effective_batch", b->effective_batch),
    };
    JSON_ROWS_ADD(o, batch);
    if (b->training)
        JSON_ROWS_ADD(o, accumulation);
}

void plan_verdict_json(json_t *o, const struct calc_request *req, const struct plan_verdict *v)
{
    const struct json_row verdict[] = {
        JROW_REAL("budget_mib", req->budget_mib),
        JROW_REAL("margin", req->margin),
        JROW_REAL("usable_mib", v->usable_mib),
        JROW_REAL("fixed_mib", v->fixed_mib),
        JROW_INT("max_micro_batch", v->max_micro_batch),
        JROW_BOOL("fits", v->outcome == PLAN_FITS),
        JROW_TEXT("outcome", plan_outcome_words(v->outcome)),
        JROW_REAL("predicted_peak_mib", v->predicted_mib),
    };
    JSON_ROWS_ADD(o, verdict);
}

/* A calibrated plan's correction (reports/calibration.h), after the outcome. */
static void calibration_json(json_t *o, const struct calibration *c)
{
    const struct json_row calibration[] = {
        JROW_TEXT("calibrated_by", c->command->key.measured_by),
        JROW_TEXT("calibrated_by_job", c->command->points[0]->job),
        JROW_INT("calibration_points", c->n),
        JROW_REAL("calibration_mib", c->mean_mib),
        JROW_REAL("calibration_sd_mib", c->sd_mib),
        JROW_REAL("calibration_se_mib", c->se_mib),
        JROW_REAL("calibration_new_run_mib", c->new_run_mib),
        JROW_INT("calibration_dof", c->term.dof),
        JROW_INT("calibration_points_on_floor", c->on_floor),
    };
    JSON_ROWS_ADD(o, calibration);
}

json_t *calc_plan_json(const struct calc_request *req, const struct calc_plan *p)
{
    const struct group_fit *g = p->fit;
    json_t *o = json_object();
#define GROUP_KEY_JSON(field, size, ...) json_object_set_new(o, #field, json_string(g->key.field));
    GROUP_KEY_ALL(GROUP_KEY_JSON)
#undef GROUP_KEY_JSON
    const struct json_row plan[] = {
        JROW_INT("seq_len", p->seq_len),
        JROW_REAL("baseline_mib", g->baseline_mib),
        JROW_TEXT("metric", metric_name(g->metric)),
        JROW_TEXT("fit_model", group_chosen(g)->p == 3 ? "quadratic" : "linear"),
        JROW_INT("zero_stage", req->zero),
        JROW_REAL("fixed_per_replica_mib", p->fixed_per_replica_mib),
        JROW_BOOL("training", p->training),
    };
    const struct json_row outcome[] = { /* after the verdict's predicted_peak_mib */
        JROW_REAL_OR_NULL("predicted_peak_ci95_mib", p->predicted_ci95_mib),
        JROW_TEXT("interval", "95% prediction interval of a new measurement"),
        JROW_INT("max_micro_batch_at_estimate", p->max_micro_batch_estimate),
        JROW_BOOL("extrapolated", p->extrapolated),
        JROW_BOOL("linear_in_seq_len_beyond_measured", p->linear_seq_len_beyond),
        JROW_BOOL("far_outside_measured", p->far_extrapolated),
        JROW_BOOL("extrapolation", p->past_tokens),
        JROW_REAL("tokens_max_measured", g->max_tokens),
        JROW_BOOL("floor", g->floor.found),
        JROW_TEXT("set_by", p->floor_binds ? "floor" : "line"),
        JROW_INT("points_above_knee", g->n_above),
        JROW_BOOL("too_few_above_knee", g->n_above < GROUP_FIT_ABOVE_MIN),
        JROW_TEXT("fit_flags", g->flags),
        JROW_BOOL("measured_on_this_machine", !p->other_machine),
        JROW_TEXT("process", plan_process_option_names.name(req->process)),
        JROW_TEXT("process_words", p->process_words),
        JROW_REAL("process_term_mib", p->process_term_mib),
        JROW_TEXT("process_term_zero_grad", p->process->zero_grad ? p->process->zero_grad : ""),
        JROW_TEXT("measured_on_cpu", g->hw.cpu_model),
    };
    JSON_ROWS_ADD(o, plan);
    plan_batch_json(o, &(struct plan_batch){.per_sample_mib = p->per_sample_mib, .activation_mib = p->activation_mib,
                                            .micro_batch = p->micro_batch, .accum = p->accum,
                                            .replicas = req->replicas, .effective_batch = p->effective_batch,
                                            .training = p->training});
    plan_verdict_json(o, req, &(struct plan_verdict){p->fixed_mib, p->usable_mib, p->predicted_mib,
                                                     p->max_micro_batch, p->outcome});
    JSON_ROWS_ADD(o, outcome);
    if (p->calibration.command)
        calibration_json(o, &p->calibration);
    return o;
}
