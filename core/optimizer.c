/* optimizer.c: names and properties read off PF_OPTIMIZERS and PF_ZERO_GRADS. */
#include <string.h>
#include "core/optimizer.h"
#include "util/options.h"

static const struct {
    const char *name;
    int moments;
} optimizers[PF_OPT_COUNT] = {
#define PF_OPTIMIZER_ROW_(id, name, moments, help) [PF_OPT_##id] = {name, moments},
    PF_OPTIMIZERS(PF_OPTIMIZER_ROW_)
#undef PF_OPTIMIZER_ROW_
};

static const char *const zero_grads[PF_ZERO_GRAD_COUNT] = {
#define PF_ZERO_GRAD_ROW_(id, name, help) [PF_ZERO_GRAD_##id] = name,
    PF_ZERO_GRADS(PF_ZERO_GRAD_ROW_)
#undef PF_ZERO_GRAD_ROW_
};

static const char *optimizer_name_at(int i) { return optimizers[i].name; }
static const char *zero_grad_name_at(int i) { return zero_grads[i]; }

static int index_of(const char *name, const char *(*name_at)(int), int count)
{
    for (int i = 0; i < count; i++)
        if (strcmp(name, name_at(i)) == 0)
            return i;
    return -1;
}

int optimizer_from_name(const char *name) { return index_of(name, optimizer_name_at, PF_OPT_COUNT); }
int zero_grad_from_name(const char *name) { return index_of(name, zero_grad_name_at, PF_ZERO_GRAD_COUNT); }
const char *optimizer_name(pf_optimizer o) { return (int)o >= 0 && o < PF_OPT_COUNT ? optimizers[o].name : "?"; }
const char *zero_grad_name(pf_zero_grad z) { return (int)z >= 0 && z < PF_ZERO_GRAD_COUNT ? zero_grads[z] : "?"; }
int optimizer_moments(pf_optimizer o) { return (int)o >= 0 && o < PF_OPT_COUNT ? optimizers[o].moments : 0; }

/* torch/optim/optimizer.py's _default_to_fused_or_foreach with
 * use_fused=False: foreach where every parameter is on a device of
 * _get_foreach_kernels_supported_devices() (cuda among those peakfit runs
 * on; not cpu, not mps). */
pf_optimizer optimizer_resolved(pf_optimizer o, const char *device)
{
    if (o != PF_OPT_AUTO)
        return o;
    return strncmp(device, "cuda", 4) == 0 ? PF_OPT_ADAMW_FOREACH : PF_OPT_ADAMW;
}

const struct opt_names optimizer_option_names = {optimizer_name_at, PF_OPT_COUNT, NULL, NULL};
const struct opt_names zero_grad_option_names = {zero_grad_name_at, PF_ZERO_GRAD_COUNT, NULL, NULL};
