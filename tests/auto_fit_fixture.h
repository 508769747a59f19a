/* auto_fit_fixture.h: the automated sweep's view (autosweep/auto_fit.h) of
 * observation_fixture.h's points: model m, cpu, full, sdpa, the whole
 * model, at seq_len s, fitted at the allocator level (the points name no
 * other setting: any is theirs). */
#ifndef PEAKFIT_AUTO_FIT_FIXTURE_H
#define PEAKFIT_AUTO_FIT_FIXTURE_H
#include "autosweep/auto_fit.h"

static inline void auto_fit_fixture_read(const struct observations *o, int s, struct auto_fit *f)
{
    struct auto_select sel = {.seq_len = s, .metric = METRIC_TENSOR};
    sel.want.want[GROUP_AXIS_model] = "m";
    sel.want.want[GROUP_AXIS_device] = "cpu";
    sel.want.want[GROUP_AXIS_technique] = "full";
    sel.want.want[GROUP_AXIS_attention] = "sdpa";
    sel.want.want[GROUP_AXIS_layers] = "";
    auto_fit_read(o, &sel, f);
}
#endif
