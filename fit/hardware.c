/* hardware.c: the machine of a measurement, and how a title names it. */
#include <stdio.h>
#include "fit/hardware.h"

void hardware_of(const struct observation *o, struct hardware *hw)
{
#define HARDWARE_COPY(field, size) snprintf(hw->field, sizeof hw->field, "%s", o->field);
    HARDWARE_FIELDS(HARDWARE_COPY)
#undef HARDWARE_COPY
}

const char *hardware_title(const struct hardware *hw, char *out, size_t size)
{
    const char *torch = hw->torch_version[0] ? hw->torch_version : "unknown";
    if (hw->gpu_name[0])
        snprintf(out, size, "%s, driver %s, libtorch %s", hw->gpu_name,
                 hw->driver_version[0] ? hw->driver_version : "unknown", torch);
    else
        snprintf(out, size, "CPU %s, libtorch %s", hw->cpu_model[0] ? hw->cpu_model : "unknown", torch);
    return out;
}
