/* auto_slice_knee.c: a slice's knee by arithmetic (autosweep/auto_slice_knee.h). */
#include <math.h>
#include "autosweep/auto_slice_knee.h"
#include "core/technique.h"
#include "models/param_count.h"
#include "point/predict.h"

#define MIB (1024.0 * 1024.0)
/* AdamW one parameter at a time: exp_avg_sq's square root, then the
 * denominator made from it, each a tensor of the parameter's size. */
enum { ADAMW_STEP_TEMPORARIES = 2 };
/* How far over the floor the first point above the knee is aimed. */
#define KNEE_CLEARANCE 1.01

double slice_knee_tokens(const struct slice_knee *k)
{
    return k->line_mib_per_token > 0 ? (k->floor_mib + k->grads_mib) / k->line_mib_per_token : INFINITY;
}

int slice_knee_batch(const struct slice_knee *k, int seq_len)
{
    double line = k->line_mib_per_token;
    if (!(line > 0) || seq_len <= 0)
        return 0;
    double tokens = (k->floor_mib * KNEE_CLEARANCE + k->grads_mib) / line;
    int b = (int)ceil(tokens / seq_len);
    return b < 1 ? 1 : b;
}

double slice_knee_peak_mib(const struct slice_knee *k, int batch, int seq_len)
{
    return k->states_mib + fmax(k->floor_mib, k->line_mib_per_token * batch * seq_len - k->grads_mib);
}

int slice_knee_cheapest(const struct slice_knee *k, int n, int seq_len)
{
    int best = 0;
    double best_cost = INFINITY;
    for (int i = 0; i < n; i++) {
        int b = slice_knee_batch(&k[i], seq_len);
        double cost = (2.0 * b + 1) * seq_len * k[i].params;
        if (b > 0 && cost < best_cost)
            best = i, best_cost = cost;
    }
    return best;
}

int slice_knee_of(const pf_model_config *slice, const pf_train_options *options, pf_zero_grad z,
                  pf_attention attention, long seq_len, struct slice_knee *k)
{
    const pf_technique_info *info = pf_technique_info_of(options->technique);
    if (!info->training || info->checkpoint || info->precision != PF_FP32 || options->optimizer != PF_OPT_ADAMW)
        return -1;
    pf_model_stats st = model_footprint(slice, options);
    *k = (struct slice_knee){
        .depth = (int)slice->num_layers,
        .floor_mib = ADAMW_STEP_TEMPORARIES * (double)model_largest_trainable_bytes(slice, options) / MIB,
        .grads_mib = z == PF_ZERO_GRAD_NONE ? (double)st.grad_bytes / MIB : 0,
        .line_mib_per_token = predict_activation_mib_per_token(slice, options->technique, attention, seq_len),
        .states_mib = (double)(st.weight_bytes + st.grad_bytes + st.optimizer_bytes) / MIB,
        .params = (double)st.params};
    return k->line_mib_per_token > 0 ? 0 : -1;
}
