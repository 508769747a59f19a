/* predict.c: expected peaks, from what was measured or from arithmetic. */
#include <stdlib.h>
#include <string.h>
#include "models/param_count.h"
#include "runner/predict.h"
#include "sweeps/device.h"
#include "sweeps/technique.h"

/* What a worker holds before its model is built (libtorch, thread pools),
 * until one has said. */
#define GUESS_BASELINE_MIB 400.0
#define MIB (1024.0 * 1024.0)

void predictor_init(struct predictor *pr, const struct sweep *sweep)
{
    *pr = (struct predictor){.sweep = sweep, .baseline_mib = GUESS_BASELINE_MIB};
}

void predictor_learn(struct predictor *pr, const struct grid_point *p, const struct point_result *r)
{
    if (r->baseline_rss_mib > 0)
        pr->baseline_mib = r->baseline_rss_mib;
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

static int same_kind(const struct grid_point *a, const struct grid_point *b)
{
    return a->technique == b->technique && a->attention == b->attention && strcmp(a->device, b->device) == 0 &&
           strcmp(a->model_source, b->model_source) == 0 && a->job->lora_rank == b->job->lora_rank &&
           a->job->lora_targets == b->job->lora_targets;
}

static double tokens_of(const struct grid_point *p) { return (double)p->batch * p->seq_len; }

/* From the measured points of its kind; -1 when there are none. */
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
    if (below)
        return below->peak_mib * (tokens_of(below->p) > 0 ? t / tokens_of(below->p) : 1);
    return -1;
}

static const pf_model_config *config_of(const struct predictor *pr, const struct grid_point *p)
{
    for (int i = 0; i < pr->sweep->n_models; i++)
        if (strcmp(pr->sweep->models[i].spec.source, p->model_source) == 0)
            return &pr->sweep->models[i].spec.config;
    return NULL;
}

/* Weights, gradients and AdamW state by arithmetic, and activations as
 * about 32 fp32 values of hidden_size per token per layer plus three
 * copies of the logits: coarse, but only until a point of its kind ends. */
static double from_params(const struct predictor *pr, const struct grid_point *p)
{
    const pf_model_config *c = config_of(pr, p);
    /* A GPU point's model lives on its own GPU (one a slot): what it adds
     * to the host is libraries and the CUDA context, in the baseline. */
    if (!c || device_is_gpu(p->device))
        return 0;
    pf_train_options o = {.technique = p->technique, .lora_rank = p->job->lora_rank,
                          .lora_targets = p->job->lora_targets, .attention = p->attention};
    pf_model_stats st = model_footprint(c, &o);
    double t = tokens_of(p);
    double activations = t * 4.0 * (32.0 * (double)c->hidden_size * (double)c->num_layers + 3.0 * (double)c->vocab_size);
    if (!technique_runs_steps(p->technique))
        activations = 0;
    return ((double)st.weight_bytes + (double)st.grad_bytes + (double)st.optimizer_bytes + activations) / MIB;
}

double predictor_peak_mib(const struct predictor *pr, const struct grid_point *p)
{
    double above = from_measured(pr, p);
    if (above < 0)
        above = from_params(pr, p);
    if (p->job->mem_limit > 0 && above > (double)p->job->mem_limit / MIB)
        above = (double)p->job->mem_limit / MIB;
    return pr->baseline_mib + above;
}

void predictor_free(struct predictor *pr)
{
    free(pr->seen);
    pr->seen = NULL;
    pr->n = pr->cap = 0;
}
