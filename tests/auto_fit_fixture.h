/* auto_fit_fixture.h: the automated sweep's view (autosweep/auto_fit.h) of
 * observation_fixture.h's points: model m, cpu, full, sdpa, AdamW, zero_grad
 * none, the whole model, at seq_len s, fitted at the allocator level. */
#ifndef PEAKFIT_AUTO_FIT_FIXTURE_H
#define PEAKFIT_AUTO_FIT_FIXTURE_H
#include "autosweep/auto_fit.h"

static inline void auto_fit_fixture_read(const struct observations *o, int s, struct auto_fit *f)
{
    struct auto_select sel = {.model = "m", .device = "cpu", .technique = "full", .attention = "sdpa",
                              .optimizer = "adamw", .zero_grad = "none", .seq_len = s, .layers = "",
                              .metric = METRIC_TENSOR};
    auto_fit_read(o, &sel, f);
}
#endif
