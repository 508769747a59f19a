/* calc_shard.c: what one data-parallel replica holds against the single
 * process the fit measured (--replicas G --zero Z), term by term as each
 * rank of a sharded run on CPU showed it (bench/sharded.sh,
 * bench/results/sharded.txt; docs/calc.md).
 *
 * The fit's two regimes hold different things, so they move apart:
 *  - the line's peak (the start of backward: activations, weights and
 *    AdamW's state, no gradient yet, zero_grad(set_to_none=True) having
 *    dropped them) loses the shards of optimizer state and weights only;
 *  - the floor (the optimizer step and late backward: every gradient live)
 *    loses the gradients' shards too.
 * What sharding adds, as measured:
 *  - DDP (no --zero, and ZeRO-1: torch's ZeroRedundancyOptimizer runs under
 *    DDP) keeps the gradients a second time in its reducer's buckets, from
 *    its construction on (gradient_as_bucket_view off, the default);
 *  - FSDP2 fully_shard per decoder layer and on the root (ZeRO-3) holds the
 *    root module's own weights (embeddings, final norm, an untied head)
 *    unsharded from forward to the end of backward, the root's gradients
 *    whole until its reduce-scatter, the last, and one layer's unsharded
 *    weights in flight (backward's prefetch, a reduce-scatter's input). */
#include <math.h>
#include <stdio.h>
#include "reports/calc.h"
#include "models/model_spec.h"
#include "models/param_count.h"

/* Per stage: what is sharded 1/G, and which runtime's terms are added. */
static const struct zero_stage {
    int optimizer, grads, weights;
    int ddp_buckets, fsdp_units;
} stages[] = {
    {0, 0, 0, 1, 0}, /* DDP */
    {1, 0, 0, 1, 0}, /* ZeRO-1: ZeroRedundancyOptimizer under DDP */
    {1, 1, 0, 0, 0}, /* ZeRO-2: not measured; the shards alone */
    {1, 1, 1, 0, 1}, /* ZeRO-3: FSDP2 fully_shard */
};

/* The root's share of the weights and one layer's, from the model's
 * config: the parameters outside the layers (a config with no layers)
 * over all of them. */
static int fsdp_shares(const char *config, double *root, double *layer, char *err, size_t errlen)
{
    struct model_spec m;
    if (model_spec_read(config, &m, err, errlen) != 0)
        return -1;
    pf_model_config outside = m.config;
    outside.num_layers = 0;
    double all = (double)model_param_count(&m.config), own = (double)model_param_count(&outside);
    *root = own / all;
    *layer = m.config.num_layers > 0 ? (all - own) / all / (double)m.config.num_layers : 0;
    return 0;
}

int replica_shift_make(const struct calc_request *req, const struct group_fit *g, struct replica_shift *s,
                       char *err, size_t errlen)
{
    *s = (struct replica_shift){0};
    long n = req->replicas;
    if (n < 2 || req->zero < 0 || req->zero > 3)
        return 0;
    const struct zero_stage *z = &stages[req->zero];
    double kept = 1 - 1.0 / (double)n;
    double root = 0, layer = 0;
    if (z->fsdp_units) {
        const char *config = req->config ? req->config : g->key.model;
        char why[700];
        if (fsdp_shares(config, &root, &layer, why, sizeof why) != 0) {
            snprintf(err, errlen, "--zero 3 sizes what FSDP holds unsharded (the root module, a layer in flight) from "
                     "the model's layers: %s%s", why, req->config ? "" : "; give --config PATH, the model's config.json");
            return -1;
        }
    }
    s->buckets_mib = z->ddp_buckets ? g->grad_mib : 0;
    s->root_mib = root * g->weight_mib;
    s->root_grads_mib = root * g->grad_mib * kept;
    s->layer_mib = layer * g->weight_mib;
    double added = s->buckets_mib + s->root_mib + s->layer_mib;
    s->line_mib = added - kept * (z->optimizer * g->optimizer_mib + z->weights * g->weight_mib);
    s->floor_mib = added + s->root_grads_mib -
                   kept * (z->optimizer * g->optimizer_mib + z->grads * g->grad_mib + z->weights * g->weight_mib);
    return 0;
}

double replica_shift_at(const struct replica_shift *s, const struct group_fit *g, double b, double seq_len)
{
    double line = group_line_at(g, b, seq_len);
    double floor_ = g->floor.found ? floor_at(&g->floor, b * seq_len) : -INFINITY;
    return fmax(line + s->line_mib, floor_ + s->floor_mib) - fmax(line, floor_);
}
