/* predict.c: expected peaks, from what was measured or from arithmetic. */
#include <stdlib.h>
#include <string.h>
#include "models/param_count.h"
#include "point/point_fields.h"
#include "point/predict.h"
#include "sweeps/job_train_options.h"
#include "core/device.h"
#include "core/technique.h"

/* What a worker holds before its model is built (libtorch, thread pools),
 * until one has said. */
#define GUESS_BASELINE_MIB 400.0
#define MIB (1024.0 * 1024.0)
#define ARITH_SLOPE_MARGIN 1.25

void predictor_init(struct predictor *pr, const struct sweep *sweep)
{
    *pr = (struct predictor){.sweep = sweep};
    for (int j = 0; j < SWEEP_MAX_JOBS; j++)
        pr->baseline_mib[j] = GUESS_BASELINE_MIB;
}

static int job_of(const struct predictor *pr, const struct grid_point *p)
{
    ptrdiff_t j = p->job - pr->sweep->jobs;
    return j >= 0 && j < SWEEP_MAX_JOBS ? (int)j : 0;
}

double predictor_baseline_mib(const struct predictor *pr, const struct grid_point *p)
{
    return pr->baseline_mib[job_of(pr, p)];
}

void predictor_learn(struct predictor *pr, const struct grid_point *p, const struct predict_measured *r)
{
    /* A command's baseline is its own word: one above the peak the runner
     * measured is false (proc/command_watch.c makes that row an error), and
     * one job's baseline says nothing of another's (a script's is not
     * peakfit's worker's). */
    if (r->baseline_rss_mib > 0 && (r->peak_rss_mib < 0 || r->baseline_rss_mib <= r->peak_rss_mib))
        pr->baseline_mib[job_of(pr, p)] = r->baseline_rss_mib;
    if (strcmp(r->status, "ok") != 0 || r->peak_rss_mib < 0 || r->baseline_rss_mib < 0)
        return;
    if (pr->n == pr->cap) {
        int cap = pr->cap ? 2 * pr->cap : 64;
        struct predict_seen *bigger = realloc(pr->seen, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return; /* predictions stay arithmetic: safe, only coarser */
        pr->seen = bigger;
        pr->cap = cap;
    }
    pr->seen[pr->n++] = (struct predict_seen){p, r->peak_rss_mib - r->baseline_rss_mib};
}

/* Points of one kind differ only by batch and seq_len: their peaks lie on
 * one line in tokens. */
static int same_kind(const struct grid_point *a, const struct grid_point *b)
{
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++) {
        point_text ta, tb;
        if ((f->uses & POINT_KIND) && strcmp(point_field_text(f, a, ta), point_field_text(f, b, tb)) != 0)
            return 0;
    }
    return 1;
}

static double tokens_of(const struct grid_point *p) { return (double)p->batch * p->seq_len; }

/* The config p's model is built with (a slice's depth applied) into c;
 * 0, or -1 when the sweep has no such model. */
static int config_of(const struct predictor *pr, const struct grid_point *p, pf_model_config *c)
{
    for (int i = 0; i < pr->sweep->n_models; i++)
        if (strcmp(pr->sweep->models[i].spec.source, p->model_source) == 0) {
            if (model_spec_is_label(&pr->sweep->models[i].spec))
                return -1;
            *c = pf_config_slice(&pr->sweep->models[i].spec.config, p->layers);
            return 0;
        }
    return -1;
}

/* fp32 values per token that one layer keeps for backward, by the layer
 * layout: the two norms' inputs and outputs (4h), q, k and v after their
 * projections (q + 2 kv), attention's output (q), and the MLP's gate, up,
 * activation and product (4 I); eager attention adds its scores and
 * probabilities, 2 heads x s. SmolLM2-135M: 9984 (1.71 MiB/token with the
 * logits, against 1.85 measured above the floor). */
static double saved_per_token_per_layer(const pf_model_config *c, const struct grid_point *p)
{
    double head_dim = c->head_dim ? (double)c->head_dim : (double)c->hidden_size / (double)c->num_heads;
    double q = head_dim * (double)c->num_heads, kv = head_dim * (double)c->num_kv_heads;
    double values = 4.0 * (double)c->hidden_size + 2.0 * q + 2.0 * kv + 4.0 * (double)c->intermediate_size;
    if (p->attention == PF_ATTN_EAGER)
        values += 2.0 * (double)c->num_heads * p->seq_len;
    return values;
}

/* Activation bytes per token: for training every layer's saved values
 * (with checkpointing only the layers' inputs and one layer's set) and
 * three copies of the logits (them, log-softmax, their gradient); for
 * inference one layer's worth and two copies of the logits, transient. */
static double activation_bytes_per_token(const pf_model_config *c, const struct grid_point *p)
{
    double layer = saved_per_token_per_layer(c, p), logits = (double)c->vocab_size;
    if (!technique_runs_steps(p->technique))
        return 0;
    if (!technique_is_training(p->technique))
        return 4.0 * (layer + 2.0 * logits);
    if (technique_is_checkpointed(p->technique))
        return 4.0 * ((double)c->num_layers * (double)c->hidden_size + layer + 3.0 * logits);
    return 4.0 * ((double)c->num_layers * layer + 3.0 * logits);
}

/* Weights, gradients and AdamW state by arithmetic, and activations by
 * the layer layout: coarse, but only until a point of its kind ends. */
static double from_params(const struct predictor *pr, const struct grid_point *p)
{
    pf_model_config c;
    /* A GPU point's model lives on its own GPU (one a slot): what it adds
     * to the host is libraries and the CUDA context, in the baseline. */
    if (config_of(pr, p, &c) != 0 || device_is_gpu(p->device))
        return 0;
    pf_train_options o = train_options_of(&p->axes, p->technique, p->attention);
    pf_model_stats st = model_footprint(&c, &o);
    double activations = tokens_of(p) * activation_bytes_per_token(&c, p);
    return ((double)st.weight_bytes + (double)st.grad_bytes + (double)st.optimizer_bytes + activations) / MIB;
}

/* MiB per token of activations by arithmetic; -1 where there is none. */
static double arithmetic_per_token_mib(const struct predictor *pr, const struct grid_point *p)
{
    pf_model_config c;
    if (config_of(pr, p, &c) != 0 || device_is_gpu(p->device) || !technique_runs_steps(p->technique))
        return -1;
    return activation_bytes_per_token(&c, p) / MIB;
}

/* From the measured points of its kind; -1 when there are none. Above the
 * largest measured: its peak and the activations of the tokens it adds by
 * arithmetic (+25% for what the allocator and the layout leave out), not
 * its peak scaled by the tokens, which scales the fixed state too (a
 * Qwen2.5-0.5B at b = 2 would be twice b = 1's 9 GiB). */
static double from_measured(const struct predictor *pr, const struct grid_point *p)
{
    const struct predict_seen *above = NULL, *below = NULL;
    double t = tokens_of(p);
    for (int i = 0; i < pr->n; i++) {
        const struct predict_seen *s = &pr->seen[i];
        if (!same_kind(s->p, p))
            continue;
        double ts = tokens_of(s->p);
        if (ts >= t && (!above || ts < tokens_of(above->p)))
            above = s;
        if (ts < t && (!below || ts > tokens_of(below->p)))
            below = s;
    }
    if (above)
        return above->peak_mib;
    if (!below)
        return -1;
    double tb = tokens_of(below->p), per_token = arithmetic_per_token_mib(pr, p);
    if (per_token > 0)
        return below->peak_mib + (t - tb) * ARITH_SLOPE_MARGIN * per_token;
    return below->peak_mib * (tb > 0 ? t / tb : 1);
}

double predictor_peak_mib(const struct predictor *pr, const struct grid_point *p)
{
    double above = from_measured(pr, p);
    if (above < 0)
        above = from_params(pr, p);
    if (p->job->mem_limit > 0 && above > (double)p->job->mem_limit / MIB)
        above = (double)p->job->mem_limit / MIB;
    return predictor_baseline_mib(pr, p) + above;
}

void predictor_free(struct predictor *pr)
{
    free(pr->seen);
    pr->seen = NULL;
    pr->n = pr->cap = 0;
}
