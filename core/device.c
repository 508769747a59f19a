/* device.c: one table of device names; "cuda:N" picks one GPU. */
#include <stdio.h>
#include <string.h>
#include "core/device.h"
#include "util/name_list.h"
#include "util/options.h"
#include "util/parse.h"

static const struct device_kind {
    const char *name;  /* as written */
    int takes_index;   /* also accepted as name:N */
    int gpu;           /* memory measured on the device (pf_device_memory) */
} kinds[] = {
    {"cpu", 0, 0},
    {"cuda", 1, 1},
    {"mps", 0, 1},
};
enum { KIND_COUNT = sizeof kinds / sizeof kinds[0] };

int device_name_is_known(const char *name)
{
    for (int i = 0; i < KIND_COUNT; i++) {
        size_t n = strlen(kinds[i].name);
        if (strncmp(name, kinds[i].name, n) != 0)
            continue;
        if (name[n] == '\0')
            return 1;
        long index;
        if (kinds[i].takes_index && name[n] == ':' && name[n + 1] >= '0' && name[n + 1] <= '9' &&
            parse_long(name + n + 1, 0, 999, &index) == 0)
            return 1;
    }
    return 0;
}

int device_is_gpu(const char *name)
{
    for (int i = 0; i < KIND_COUNT; i++) {
        size_t n = strlen(kinds[i].name);
        if (strncmp(name, kinds[i].name, n) == 0 && (name[n] == '\0' || name[n] == ':'))
            return kinds[i].gpu;
    }
    return 0;
}

const char *device_names(void)
{
    static char text[128];
    struct name_list l;
    if (text[0])
        return text; /* built once */
    name_list_start(&l, text, sizeof text);
    for (int i = 0; i < KIND_COUNT; i++) {
        name_list_add(&l, kinds[i].name);
        if (kinds[i].takes_index)
            name_list_addf(&l, "%s:N", kinds[i].name);
    }
    return text;
}

int device_name_check(const char *display, const char *name, char *why, size_t size)
{
    if (device_name_is_known(name))
        return 0;
    snprintf(why, size, "%s must be one of %s, not \"%s\"", display, device_names(), name);
    return -1;
}

int device_option_set(const struct opt_row *row, const char *display, const char *value, void *target,
                      void *ctx, char *why, size_t size)
{
    (void)ctx;
    if (device_name_check(display, value, why, size) != 0)
        return -1;
    *(const char **)((char *)target + row->off) = value;
    return 0;
}
