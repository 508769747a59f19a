/* sweep_setters.h: the sweep file's own value types, as the option
 * engine's OPT_CUSTOM setters that the key table's rows name
 * (sweeps/sweep_keys.c); ctx is the sweep parser (sweeps/sweep_parser.h),
 * target its job. Private to sweeps/. */
#ifndef PEAKFIT_SWEEP_SETTERS_H
#define PEAKFIT_SWEEP_SETTERS_H
#include <stddef.h>
#include "util/options.h"

/* One model (a preset or a config.json path), one device, one technique
 * (or a command job's label), one BxS pair, a
 * weights file (sweep_key_set.c); the command and a param.NAME
 * (sweep_command.c). */
#define SWEEP_SETTER(name)                                                                                     \
    int name(const struct opt_row *row, const char *display, const char *value, void *target, void *ctx,     \
             char *why, size_t size)
SWEEP_SETTER(sweep_set_model);
SWEEP_SETTER(sweep_set_device);
SWEEP_SETTER(sweep_set_technique);
SWEEP_SETTER(sweep_set_pair);
SWEEP_SETTER(sweep_set_weights);
SWEEP_SETTER(sweep_set_command);
SWEEP_SETTER(sweep_set_param);
#endif
