/* param_count.c: parameter arithmetic over the projection table. */
#include <stdio.h>
#include <unistd.h>
#include "models/param_count.h"

/* One layer: its projections and norms, as pf_layer_projections and
 * pf_layer_norms (core/model_config.h) lay them out for the builder too. */
static int64_t layer_param_count(const pf_model_config *c)
{
    pf_projection p[PF_LAYER_PROJECTIONS_MAX];
    pf_layer_norm norms[PF_LN_COUNT];
    int n = pf_layer_projections(c, p), k = pf_layer_norms(c, norms);
    int64_t layer = 0;
    for (int i = 0; i < n; i++)
        layer += p[i].in * p[i].out + (p[i].bias ? p[i].out : 0);
    for (int i = 0; i < k; i++)
        layer += pf_norm_params(c, norms[i].dim);
    return layer;
}

int64_t model_param_count(const pf_model_config *c)
{
    int64_t embeddings = c->vocab_size * c->hidden_size;
    int64_t positions = (c->arch & PF_ARCH_LEARNED_POSITIONS) ? c->max_positions * c->hidden_size : 0;
    int64_t head = c->tie_embeddings ? 0 : embeddings;
    return embeddings + positions + c->num_layers * layer_param_count(c) + pf_norm_params(c, c->hidden_size) +
           head;
}

int64_t model_lora_param_count(const pf_model_config *c, int rank, unsigned targets)
{
    pf_projection p[PF_LAYER_PROJECTIONS_MAX];
    int n = pf_layer_projections(c, p);
    int64_t layer = 0;
    for (int i = 0; i < n; i++)
        if (targets & p[i].lora_targets)
            layer += (int64_t)rank * (p[i].in + p[i].out);
    return c->num_layers * layer;
}

pf_model_stats model_footprint(const pf_model_config *c, const pf_train_options *t)
{
    const pf_technique_info *info = pf_technique_info_of(t->technique);
    int lora = info->lora;
    int training = info->training;
    int64_t dtype_bytes = info->precision == PF_BF16 ? 2 : 4;
    int64_t adapters = lora ? model_lora_param_count(c, t->lora_rank, t->lora_targets) : 0;
    pf_model_stats st = {.params = model_param_count(c) + adapters};
    if (training)
        st.trainable_params = lora ? adapters : st.params;
    st.weight_bytes = st.params * dtype_bytes;
    st.grad_bytes = st.trainable_params * dtype_bytes;
    st.optimizer_bytes = optimizer_moments(t->optimizer) * st.trainable_params * dtype_bytes;
    return st;
}

int64_t machine_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? (int64_t)pages * page : 0;
}

int model_weights_fit(const pf_model_config *c, int64_t memory_bytes, char *why, size_t whylen)
{
    int64_t params = model_param_count(c);
    if (memory_bytes <= 0 || params * 4 <= memory_bytes)
        return 0;
    const double gib = 1024.0 * 1024.0 * 1024.0;
    snprintf(why, whylen, "%.1e parameters need %.1f GiB for their fp32 weights alone, "
             "more than this machine's %.1f GiB of memory", (double)params, (double)params * 4 / gib,
             (double)memory_bytes / gib);
    return -1;
}
