/* point_result.c: reading a worker's report lines. Unknown keys are
 * ignored, so a newer worker can say more than an older parent reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runner/point_result.h"

void point_result_init(struct point_result *r)
{
    memset(r, 0, sizeof *r);
    r->baseline_rss_mib = r->peak_rss_mib = r->tensor_peak_mib = r->baseline_tensor_mib = -1;
    r->params = r->trainable_params = -1;
    r->weight_bytes = r->grad_bytes = r->optimizer_bytes = -1;
    r->build_s = r->start_s = r->init_s = -1;
    r->loss = -1;
    r->threads = r->blas_threads = -1;
    r->exit_code = -1;
    for (int i = 0; i < PF_PHASE_COUNT; i++)
        r->phase_peak_mib[i] = r->phase_end_rss_mib[i] = -1;
    r->gpu_allocated_peak_mib = r->gpu_reserved_peak_mib = r->gpu_context_mib = r->gpu_total_mib = -1;
}

/* "forward_peak_bytes" and "forward_end_rss_kib", for each phase. */
static int take_phase(struct point_result *r, const char *k, const char *v)
{
    for (int i = 0; i < PF_PHASE_COUNT; i++) {
        size_t n = strlen(pf_phase_name((pf_phase)i));
        if (strncmp(k, pf_phase_name((pf_phase)i), n) != 0)
            continue;
        if (!strcmp(k + n, "_peak_bytes"))
            r->phase_peak_mib[i] = atof(v) / 1048576;
        else if (!strcmp(k + n, "_end_rss_kib"))
            r->phase_end_rss_mib[i] = atof(v) / 1024;
        else
            continue;
        return 1;
    }
    return 0;
}

static void copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
}

static void take_step(struct point_result *r, double seconds)
{
    if (r->n_steps++ == 0)
        r->step1_s = seconds;
    else
        r->later_steps_s += seconds;
}

int point_result_take_line(struct point_result *r, char *line)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return -1;
    *eq = '\0';
    const char *k = line, *v = eq + 1;
    if (!strcmp(k, "baseline_rss_kib")) r->baseline_rss_mib = atof(v) / 1024;
    else if (!strcmp(k, "peak_rss_kib")) r->peak_rss_mib = atof(v) / 1024;
    else if (!strcmp(k, "baseline_tensor_bytes")) r->baseline_tensor_mib = atof(v) / 1048576;
    else if (!strcmp(k, "tensor_peak_bytes")) r->tensor_peak_mib = atof(v) / 1048576;
    else if (!strcmp(k, "params")) r->params = atoll(v);
    else if (!strcmp(k, "trainable_params")) r->trainable_params = atoll(v);
    else if (!strcmp(k, "weight_bytes")) r->weight_bytes = atoll(v);
    else if (!strcmp(k, "grad_bytes")) r->grad_bytes = atoll(v);
    else if (!strcmp(k, "optimizer_bytes")) r->optimizer_bytes = atoll(v);
    else if (!strcmp(k, "build_s")) r->build_s = atof(v);
    else if (!strcmp(k, "start_s")) r->start_s = atof(v);
    else if (!strcmp(k, "init_s")) r->init_s = atof(v);
    else if (!strcmp(k, "step_s")) take_step(r, atof(v));
    else if (!strcmp(k, "loss")) r->loss = atof(v);
    else if (!strcmp(k, "torch_version")) copy(r->torch_version, sizeof r->torch_version, v);
    else if (!strcmp(k, "threads")) r->threads = atoi(v);
    else if (!strcmp(k, "blas")) copy(r->blas, sizeof r->blas, v);
    else if (!strcmp(k, "blas_threads")) r->blas_threads = atoi(v);
    else if (!strcmp(k, "cpu_model")) copy(r->cpu_model, sizeof r->cpu_model, v);
    else if (!strcmp(k, "error")) copy(r->error, sizeof r->error, v);
    else if (!strcmp(k, "gpu_allocated_peak_bytes")) r->gpu_allocated_peak_mib = atof(v) / 1048576;
    else if (!strcmp(k, "gpu_reserved_peak_bytes")) r->gpu_reserved_peak_mib = atof(v) / 1048576;
    else if (!strcmp(k, "gpu_context_bytes")) r->gpu_context_mib = atof(v) / 1048576;
    else if (!strcmp(k, "gpu_total_bytes")) r->gpu_total_mib = atof(v) / 1048576;
    else if (!strcmp(k, "gpu_name")) copy(r->gpu_name, sizeof r->gpu_name, v);
    else if (!strcmp(k, "cuda_version")) copy(r->cuda_version, sizeof r->cuda_version, v);
    else if (!strcmp(k, "driver_version")) copy(r->driver_version, sizeof r->driver_version, v);
    else return take_phase(r, k, v);
    return 1;
}
