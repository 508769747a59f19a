/* gpu_slots.h: the GPUs a runner may hand out under run -j, one to each
 * parallel slot: the entries of CUDA_VISIBLE_DEVICES when it is set (as
 * written: indices or UUIDs), else one per GPU the NVIDIA driver lists. A
 * worker given one sees it alone (CUDA_VISIBLE_DEVICES=<entry>), as
 * cuda:0, so that no two workers share a device's memory. */
#ifndef PEAKFIT_GPU_SLOTS_H
#define PEAKFIT_GPU_SLOTS_H
#include "sweeps/limits.h"

/* One GPU to each slot: more than the slots there can be are never used. */
enum { GPU_SLOTS_MAX = LIMIT_JOBS_MAX, GPU_ID_MAX = 96 };

struct gpu_slots {
    int n;
    char id[GPU_SLOTS_MAX][GPU_ID_MAX];
};

/* From visible (CUDA_VISIBLE_DEVICES's value; NULL when unset) or, when it
 * is NULL, from the entries of driver_dir (/proc/driver/nvidia/gpus; a
 * missing folder is no GPU). As CUDA reads the variable, the list ends at
 * an empty or negative entry ("0,-1,1" is GPU 0 alone). */
void gpu_slots_read(const char *visible, const char *driver_dir, struct gpu_slots *g);
/* gpu_slots_read on this process's environment and driver. */
void gpu_slots_find(struct gpu_slots *g);

/* How a point uses the GPUs when several workers run at once: none (a
 * CPU point, or one worker at a time: the device as the sweep names it);
 * its slot's own GPU (device "cuda", with GPUs to hand out); or a device
 * the sweep names itself (cuda:N, mps, or cuda with none listed), which
 * it then has to itself: no other GPU point runs beside it. */
enum gpu_use { GPU_NONE, GPU_OWN, GPU_EXCLUSIVE };
enum gpu_use gpu_use_of(const struct gpu_slots *g, int jobs, const char *device);
/* May a point using the GPUs as use start in slot (0 .. jobs-1), beside
 * the n points running, which use them as running[]? */
int gpu_may_start(const struct gpu_slots *g, int slot, enum gpu_use use, const enum gpu_use *running, int n);
#endif
