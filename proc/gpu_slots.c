/* gpu_slots.c: the list of GPUs to hand out, from the environment or the
 * driver's folder; no CUDA call, so a runner never touches a device. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proc/gpu_slots.h"
#include "proc/platform.h"
#include "core/device.h"

static void from_list(const char *visible, struct gpu_slots *g)
{
    const char *p = visible;
    while (g->n < GPU_SLOTS_MAX) {
        size_t len = strcspn(p, ",");
        while (len > 0 && p[0] == ' ')
            p++, len--;
        if (len == 0 || p[0] == '-' || len >= GPU_ID_MAX)
            return;
        memcpy(g->id[g->n], p, len);
        g->id[g->n][len] = '\0';
        g->n++;
        if (p[len] != ',')
            return;
        p += len + 1;
    }
}

/* The driver names each GPU's folder by its PCI address; CUDA numbers
 * them 0 .. n-1 (its default order is by speed, not by address, so the
 * folder names themselves are not CUDA's indices). */
static void from_driver(const char *dir, struct gpu_slots *g)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            count++;
    closedir(d);
    for (; g->n < count && g->n < GPU_SLOTS_MAX; g->n++)
        snprintf(g->id[g->n], GPU_ID_MAX, "%d", g->n);
}

void gpu_slots_read(const char *visible, const char *driver_dir, struct gpu_slots *g)
{
    memset(g, 0, sizeof *g);
    if (visible)
        from_list(visible, g);
    else
        from_driver(driver_dir, g);
}

void gpu_slots_find(struct gpu_slots *g)
{
    gpu_slots_read(getenv("CUDA_VISIBLE_DEVICES"), platform_gpu_driver_dir(), g);
}

enum gpu_use gpu_use_of(const struct gpu_slots *g, int jobs, const char *device)
{
    if (jobs <= 1 || !device_is_gpu(device))
        return GPU_NONE;
    return g->n > 0 && strcmp(device, "cuda") == 0 ? GPU_OWN : GPU_EXCLUSIVE;
}

int gpu_may_start(const struct gpu_slots *g, int slot, enum gpu_use use, const enum gpu_use *running, int n)
{
    if (use == GPU_NONE)
        return 1;
    for (int i = 0; i < n; i++)
        if (running[i] == GPU_EXCLUSIVE || (running[i] == GPU_OWN && use == GPU_EXCLUSIVE))
            return 0;
    return use == GPU_EXCLUSIVE || slot < g->n;
}
