/* device_check.c: a sweep's devices, and the optimizers its jobs name on
 * them, against the libtorch behind peakfit-worker (asked through
 * torch_facts), before anything runs. */
#include <stdio.h>
#include <string.h>
#include "runner/device_check.h"
#include "core/optimizer.h"
#include "core/technique.h"
#include "worker/torch_facts.h"

/* Why a device cannot be used: a build without CUDA, a machine without a
 * GPU, or a libtorch without the device. */
static void device_refusal(const char *device, const char *kind, const char *path, int line, char *err,
                           size_t errlen)
{
    if (!strcmp(kind, "cuda") && !torch_facts_cuda_compiled())
        snprintf(err, errlen, "%s:%d: device %s: this peakfit was built without CUDA (rebuild against a "
                 "PyTorch with CUDA: make clean && make LIBTORCH=auto)", path, line, device);
    else if (!strcmp(kind, "cuda"))
        snprintf(err, errlen, "%s:%d: device %s: no CUDA GPU is visible on this machine "
                 "(libtorch's cuda::is_available() is false)", path, line, device);
    else
        snprintf(err, errlen, "%s:%d: device %s is not available in this build of libtorch "
                 "(rebuild with make LIBTORCH=/path/to/a/libtorch that has it)", path, line, device);
}

static int job_trains(const struct sweep_job *j)
{
    for (int t = 0; t < j->n_techniques; t++)
        if (technique_is_training(j->techniques[t]))
            return 1;
    return 0;
}

/* A job that lists an optimizer this libtorch cannot run on kind
 * (adamw-fused before libtorch 2.4 on cpu) is refused before anything
 * runs; auto is always there, and peakfit-worker is asked only for a job
 * that names another. */
static int optimizer_refused(const struct sweep *sweep, const struct sweep_job *j, const char *kind, char *err,
                             size_t errlen)
{
    char why[512];
    for (int o = 0; o < j->n_optimizer && job_trains(j); o++)
        if (j->optimizer[o] != PF_OPT_AUTO &&
            torch_facts_optimizer_refused(kind, optimizer_name(j->optimizer[o]), why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: job %s: %s", sweep->path, j->line, j->name, why);
            return 1;
        }
    return 0;
}

int device_check_sweep(const struct sweep *sweep, char *err, size_t errlen)
{
    for (int i = 0; i < sweep->n_jobs; i++) {
        const struct sweep_job *j = &sweep->jobs[i];
        for (int d = 0; d < j->n_devices && !j->command[0]; d++) { /* a command job's device is its own business */
            char kind[SWEEP_DEVICE_MAX];
            snprintf(kind, sizeof kind, "%s", j->devices[d]);
            kind[strcspn(kind, ":")] = '\0'; /* cuda:1 is there when cuda is */
            if (!torch_facts_device_available(kind)) {
                device_refusal(j->devices[d], kind, sweep->path, j->device_line ? j->device_line : j->line, err,
                               errlen);
                return -1;
            }
            if (optimizer_refused(sweep, j, kind, err, errlen))
                return -1;
        }
    }
    return 0;
}
