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
 *  - ZeroRedundancyOptimizer gives whole parameters to ranks, so the rank
 *    given the embedding table keeps its AdamW state whole: the largest
 *    rank's share is the larger of 1/G and the largest parameter's;
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

/* Per stage: what is sharded 1/G, and which runtime's terms are added.
 * whole_params: the optimizer state is split by whole parameters
 * (ZeroRedundancyOptimizer gives each parameter to one rank, the largest
 * first), so the largest rank holds at least the largest parameter's. */
static const struct zero_stage {
    int optimizer, grads, weights;
    int ddp_buckets, fsdp_units, whole_params;
} stages[] = {
    {0, 0, 0, 1, 0, 0}, /* DDP */
    {1, 0, 0, 1, 0, 1}, /* ZeRO-1: ZeroRedundancyOptimizer under DDP */
    {1, 1, 0, 0, 0, 0}, /* ZeRO-2: not measured; the shards alone */
    {1, 1, 1, 0, 1, 0}, /* ZeRO-3: FSDP2 fully_shard (each parameter split along its first dimension) */
};

/* Shares of the weights, from the model's config: the root's (the
 * parameters outside the layers: a config with no layers), one layer's, and
 * the largest single parameter's (the embedding table, or a projection). */
struct param_shares {
    double root, layer, largest;
};

static int param_shares(const char *config, struct param_shares *out, char *err, size_t errlen)
{
    struct model_spec m;
    if (model_spec_read(config, &m, err, errlen) != 0)
        return -1;
    const pf_model_config *c = &m.config;
    pf_model_config outside = *c;
    outside.num_layers = 0;
    double all = (double)model_param_count(c), own = (double)model_param_count(&outside);
    double largest = (double)(c->vocab_size * c->hidden_size);
    pf_projection p[PF_LAYER_PROJECTIONS_MAX];
    for (int i = 0, n = pf_layer_projections(c, p); i < n; i++)
        largest = fmax(largest, (double)(p[i].in * p[i].out));
    out->root = own / all;
    out->layer = c->num_layers > 0 ? (all - own) / all / (double)c->num_layers : 0;
    out->largest = largest / all;
    return 0;
}

static int read_shares(const struct calc_request *req, const struct group_fit *g, struct param_shares *sh,
                       char *err, size_t errlen)
{
    char why[700];
    if (param_shares(req->config ? req->config : g->key.model, sh, why, sizeof why) == 0)
        return 0;
    snprintf(err, errlen, "--zero %ld sizes what one rank holds (%s) from the model's parameters: %s%s", req->zero,
             req->zero == 3 ? "FSDP's unsharded root module and a layer in flight" : "the largest parameter's state",
             why, req->config ? "" : "; give --config PATH, the model's config.json");
    return -1;
}

int replica_shift_make(const struct calc_request *req, const struct group_fit *g, struct replica_shift *s,
                       char *err, size_t errlen)
{
    *s = (struct replica_shift){0};
    long n = req->replicas;
    if (n < 2 || req->zero < 0 || req->zero > 3)
        return 0;
    const struct zero_stage *z = &stages[req->zero];
    double elsewhere = 1 - 1.0 / (double)n; /* of an evenly sharded tensor */
    struct param_shares sh = {0};
    if ((z->fsdp_units || z->whole_params) && read_shares(req, g, &sh, err, errlen) != 0)
        return -1;
    double root = z->fsdp_units ? sh.root : 0, layer = z->fsdp_units ? sh.layer : 0;
    /* the shares held by other ranks: of the optimizer state, what the largest rank does not keep */
    double optimizer_elsewhere = z->whole_params ? 1 - fmax(1.0 / (double)n, sh.largest) : elsewhere;
    s->buckets_mib = z->ddp_buckets ? g->grad_mib : 0;
    s->root_mib = root * g->weight_mib;
    s->root_grads_mib = root * g->grad_mib * elsewhere;
    s->layer_mib = layer * g->weight_mib;
    double added = s->buckets_mib + s->root_mib + s->layer_mib;
    double optimizer_away = z->optimizer * optimizer_elsewhere * g->optimizer_mib;
    s->optimizer_held_mib = g->optimizer_mib - optimizer_away;
    s->line_mib = added - optimizer_away - elsewhere * z->weights * g->weight_mib;
    s->floor_mib = added + s->root_grads_mib - optimizer_away - elsewhere * (z->grads * g->grad_mib + z->weights * g->weight_mib);
    return 0;
}

double replica_shift_at(const struct replica_shift *s, const struct group_fit *g, double b, double seq_len)
{
    double line = group_line_at(g, b, seq_len);
    double floor_ = g->floor.found ? floor_at(&g->floor, b * seq_len) : -INFINITY;
    return fmax(line + s->line_mib, floor_ + s->floor_mib) - fmax(line, floor_);
}
