/* What a parallel run expects a point to need before starting it: from
 * the parameter count before any point of its kind has finished (weights,
 * gradients and AdamW state at least, activations by the layer layout; nothing on the host for a point on
 * a GPU of its own), then from the measured points of its kind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "point/grid.h"
#include "point/predict.h"
#include "tests/check.h"

static const char *text = "[global]\nmodel = smollm2-135m\ntechnique = full\nseq_len = 256\n"
                          "[cpu]\ndevice = cpu\nbatch = 1, 4\n"
                          "[gpu]\ndevice = cuda\nbatch = 1\n";

static const struct grid_point *find(const struct grid *g, const char *device, int batch)
{
    for (int i = 0; i < g->n; i++)
        if (!strcmp(g->points[i].device, device) && g->points[i].batch == batch)
            return &g->points[i];
    return NULL;
}

int main(void)
{
    char path[] = "/tmp/peakfit-predict-XXXXXX", err[1024];
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) && close(fd) == 0, "cannot write %s", path);
    struct sweep *s = sweep_load(path, err, sizeof err);
    unlink(path);
    CHECK(s != NULL, "sweep: %s", err);
    if (!s)
        CHECK_DONE();
    struct grid g;
    CHECK(grid_expand(s, &g) == 0, "grid_expand");
    const struct grid_point *cpu1 = find(&g, "cpu", 1), *cpu4 = find(&g, "cpu", 4), *gpu1 = find(&g, "cuda", 1);
    CHECK(cpu1 && cpu4 && gpu1, "points: %d", g.n);
    if (!cpu1 || !cpu4 || !gpu1)
        CHECK_DONE();
    struct predictor pr;
    predictor_init(&pr, s);
    /* SmolLM2-135M: 513.1 MiB of weights, as much of gradients, twice that of AdamW state. */
    double state_mib = 4 * 134515008.0 * 4 / 1048576;
    double base = predictor_peak_mib(&pr, gpu1);
    CHECK(predictor_peak_mib(&pr, cpu1) > base + state_mib, "cpu b1 before any ran: %g", predictor_peak_mib(&pr, cpu1));
    CHECK(base > 0 && base < 1024, "a GPU point adds nothing to the host's baseline: %g", base);
    /* Activations by the layer layout: within 10% of the 1.845 MiB/token
     * measured above the floor (bench/results/smollm2-135m-cpu, sdpa). */
    double per_token = (predictor_peak_mib(&pr, cpu4) - predictor_peak_mib(&pr, cpu1)) / (3 * 256);
    CHECK(per_token > 0.9 * 1.845 && per_token < 1.1 * 1.845, "activations per token by arithmetic: %g MiB", per_token);

    struct predict_measured r = {.status = "ok", .baseline_rss_mib = 150, .peak_rss_mib = 3150};
    predictor_learn(&pr, cpu1, &r);
    CHECK(predictor_peak_mib(&pr, cpu1) == 3150, "cpu b1 as measured: %g", predictor_peak_mib(&pr, cpu1));
    /* Above it: the state once, the added tokens' activations by arithmetic
     * (+25%); not b1's whole peak scaled by the tokens (12150). */
    double b4 = 3150 + 1.25 * 3 * 256 * per_token;
    CHECK(fabs(predictor_peak_mib(&pr, cpu4) - b4) < 0.01, "cpu b4: %g, expected %g", predictor_peak_mib(&pr, cpu4), b4);
    /* One job's baseline is never another's (a script's is not the worker's). */
    CHECK(predictor_peak_mib(&pr, gpu1) == base, "the [gpu] job learnt [cpu]'s baseline: %g",
          predictor_peak_mib(&pr, gpu1));
    r = (struct predict_measured){.status = "error", .baseline_rss_mib = 180, .peak_rss_mib = 900};
    predictor_learn(&pr, gpu1, &r);
    CHECK(predictor_peak_mib(&pr, gpu1) == 180, "the GPU point learns its job's baseline only: %g",
          predictor_peak_mib(&pr, gpu1));
    /* A baseline above its own peak is false (a command's bytes written as
     * KiB): learnt by no job. */
    r.baseline_rss_mib = 150 * 1024, r.peak_rss_mib = 3000;
    predictor_learn(&pr, gpu1, &r);
    predictor_learn(&pr, cpu4, &r);
    CHECK(predictor_peak_mib(&pr, gpu1) == 180 && predictor_peak_mib(&pr, cpu1) == 3150,
          "a baseline above its peak was learnt: %g, %g", predictor_peak_mib(&pr, gpu1), predictor_peak_mib(&pr, cpu1));
    predictor_free(&pr);
    grid_free(&g);
    sweep_free(s);
    CHECK_DONE();
}
