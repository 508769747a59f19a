/* calc_fixture.h: a peaks.csv for the calc tests, written by the runner's
 * own writer: technique full at seq_len 256, baseline 200 MiB, peak =
 * 1000 + 0.5 T MiB (+ noise[i] at point i when noise is given), tensor
 * peak 900 + 0.4 T, and the worker's measured weights, grads and
 * optimizer state (bytes). */
#ifndef PEAKFIT_CALC_FIXTURE_H
#define PEAKFIT_CALC_FIXTURE_H
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "store/results_csv.h"
#include "tests/check.h"

struct calc_fixture {
    const char *model;
    int n;                  /* points, batches 1, 2, 3, ... n (4 at most 16) */
    const int *batches;     /* NULL: 1, 2, 4, 8 ... */
    const double *noise;    /* NULL: none */
    const double *tensor_noise; /* NULL: none; added to the tensor peak */
    long long weight_bytes, grad_bytes, optimizer_bytes;
    double p_step;          /* > 0: per-phase peaks, and peak = max(p_step, line) + noise */
};

/* Per-phase peaks for a hinge: the phases' live tensors lie 100 MiB under
 * the peak above baseline; forward 5 MiB under backward. */
static void calc_fixture_phases(struct point_result *r, double line, double step, double noise)
{
    r->phase_peak_mib[PF_PHASE_FORWARD] = line - 105;
    r->phase_peak_mib[PF_PHASE_BACKWARD] = line - 100;
    r->phase_peak_mib[PF_PHASE_OPTIMIZER] = step - 100;
    r->peak_rss_mib = 200 + (line > step ? line : step) + noise;
    r->tensor_peak_mib = (line > step ? line : step) - 100;
}

static void calc_fixture_write(const char *dir, const struct calc_fixture *fx)
{
    char path[256], err[512];
    static struct sweep_job job = {.name = "j", .steps = 2};
    static struct grid_point points[16];
    unsigned char done[16];
    for (int i = 0; i < fx->n; i++) {
        int b = fx->batches ? fx->batches[i] : 1 << i;
        points[i] = (struct grid_point){.job = &job, .model = fx->model, .model_source = fx->model, .device = "cpu",
                                        .technique = PF_TECH_FULL, .batch = b, .seq_len = 256};
        snprintf(points[i].id, sizeof points[i].id, "p%d", i);
    }
    struct grid g = {.points = points, .n = fx->n, .sweep_path = "calc.sweep"};
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    int fd = results_open(path, &g, done, err, sizeof err);
    CHECK(fd >= 0, "results_open: %s", err);
    for (int i = 0; i < fx->n; i++) {
        struct point_result r;
        point_result_init(&r);
        strcpy(r.status, "ok");
        r.exit_code = 0;
        r.baseline_rss_mib = 200;
        r.peak_rss_mib = 200 + 1000 + 0.5 * points[i].batch * 256 + (fx->noise ? fx->noise[i] : 0);
        r.tensor_peak_mib = 900 + 0.4 * points[i].batch * 256 + (fx->tensor_noise ? fx->tensor_noise[i] : 0);
        r.baseline_tensor_mib = 0;
        if (fx->p_step > 0)
            calc_fixture_phases(&r, 1000 + 0.5 * points[i].batch * 256, fx->p_step, fx->noise ? fx->noise[i] : 0);
        if (fx->weight_bytes > 0) { /* else as the worker never said */
            r.weight_mib = fx->weight_bytes / 1048576.0;
            r.grad_mib = fx->grad_bytes / 1048576.0;
            r.optimizer_mib = fx->optimizer_bytes / 1048576.0;
        }
        CHECK(results_append(fd, &points[i], &r) == 0, "append");
    }
    close(fd);
}
#endif
