/* peaks.csv as the runner writes and resumes it: the header and every
 * column come from settings/peaks_columns.h; step times have no cap; and
 * results_open decides which points stand (done) by the rules of a resumed
 * run: other settings or another sweep's rows are refused, a timeout or a
 * watchdog oom under a smaller limit is measured again, the last row of a
 * point wins. Also: resuming 50,000 points is a hash lookup, not a scan. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "store/results_csv.h"
#include "tests/check.h"
#include "util/csv_table.h"

/* On tmpfs where there is one: every row is fsynced, 50,000 of them too. */
static char dir[64];
static char path[96];

static struct sweep_job job = {.name = "j", .steps = 2, .timeout_s = 60, .seed = 1, .threads = 2};

static void make_grid(struct grid *g, struct grid_point *points, int n)
{
    for (int i = 0; i < n; i++) {
        points[i] = (struct grid_point){.job = &job, .model = "tiny", .model_source = "tiny", .device = "cpu",
                                        .technique = PF_TECH_FULL, .batch = i + 1, .seq_len = 8};
        snprintf(points[i].id, sizeof points[i].id, "j/tiny/cpu/full/b%d/s8", i + 1);
    }
    *g = (struct grid){.points = points, .n = n, .sweep_path = "test.sweep"};
}

static struct point_result result(const char *status, int exit_code)
{
    struct point_result r;
    point_result_init(&r);
    snprintf(r.status, sizeof r.status, "%s", status);
    r.exit_code = exit_code;
    r.baseline_rss_mib = 100;
    r.peak_rss_mib = 150;
    return r;
}

/* Starts path afresh and appends one row per (point, status) pair. */
static void write_rows(const struct grid *g, const int *which, const char *const *status, int n)
{
    unsigned char *done = calloc((size_t)g->n, 1);
    unlink(path);
    int fd = results_open(path, g, done, (char[256]){0}, 256);
    free(done);
    CHECK(fd >= 0, "results_open of a new file");
    for (int i = 0; i < n; i++) {
        struct point_result r = result(status[i], strcmp(status[i], "oom-torch") ? -1 : WORKER_EXIT_OOM);
        if (!strcmp(status[i], "oom-torch"))
            strcpy(r.status, "oom");
        else if (!strcmp(status[i], "oom-command")) /* its MemoryError: exit status 1 */
            strcpy(r.status, "oom"), r.exit_code = 1;

        CHECK(results_append(fd, &g->points[which[i]], &r) == 0, "append");
    }
    close(fd);
}

static void test_header_and_columns(void)
{
    struct csv_table t;
    char err[512];
    struct grid g;
    struct grid_point points[1];
    make_grid(&g, points, 1);
    struct sweep_job full = {.name = "j", .steps = 3, .timeout_s = 90, .mem_limit = 64 << 20, .seed = 7,
                             .threads = 2, .lora_rank = {8}, .n_lora_rank = 1, .lora_targets = {PF_LORA_Q | PF_LORA_V},
                             .n_lora_targets = 1, .layers = {4}, .n_layers = 1, .weights = "/w.safetensors", .command = "train --batch {batch} --name 'a b'"};
    points[0].job = &full;
    points[0].technique = PF_TECH_LORA;
    points[0].config_hash = 0x1234abcd;
    points[0].layers = 4;
    points[0].axes = job_axes_first(&full);
    struct point_result r = result("oom", -1);
    r.signal = 9;
    r.params = r.trainable_params = 10;
    r.weight_mib = r.grad_mib = r.optimizer_mib = 1;
    r.baseline_tensor_mib = 1;
    r.tensor_peak_mib = r.rusage_maxrss_mib = r.build_s = r.loss = r.wall_s = r.start_s = r.init_s = 2;
    r.threads = r.blas_threads = 2;
    strcpy(r.torch_version, "1.13");
    strcpy(r.blas, "openblas");
    strcpy(r.cpu_model, "cpu, \"quoted\"");
    strcpy(r.error, "line one\nline two");
    strcpy(r.memory_method, "tree-poll");
    r.tree_peak_mib = 3;
    strcpy(r.rank_peaks, "0:1.000:0.500 1:2.000:");
    for (const char *const *l = (const char *const[]){"forward_peak_bytes=104857600", "backward_peak_bytes=115343360",
                                                     "optimizer_peak_bytes=94371840", "forward_end_rss_kib=300000",
                                                     "backward_end_rss_kib=310000", "optimizer_end_rss_kib=305000", NULL};
         *l; l++) {
        char copy[64];
        snprintf(copy, sizeof copy, "%s", *l);
        point_result_take_line(&r, copy);
    }
    /* 100 steps: the first 5 s, then 1 s each but the last 100 s (a cap of
     * 64 would never see it): mean (98 + 100) / 99 = 2 s. */
    char line[32];
    for (int i = 0; i < 100; i++) {
        snprintf(line, sizeof line, "step_s=%d", i == 0 ? 5 : i == 99 ? 100 : 1);
        point_result_take_line(&r, line);
    }
    /* The lines a worker on a GPU adds to its report. */
    char gpu[][48] = {"gpu_allocated_peak_bytes=3145728", "gpu_reserved_peak_bytes=4194304",
                      "gpu_context_bytes=524288000", "gpu_total_bytes=150754820096", "gpu_name=NVIDIA H200",
                      "cuda_version=13.0", "driver_version=13.0",
                      "forward_gpu_allocated_peak_bytes=2097152", "backward_gpu_allocated_peak_bytes=3145728",
                      "optimizer_gpu_allocated_peak_bytes=2621440", "forward_gpu_reserved_peak_bytes=4194304",
                      "backward_gpu_reserved_peak_bytes=4194304", "optimizer_gpu_reserved_peak_bytes=4194304"};
    for (size_t i = 0; i < sizeof gpu / sizeof gpu[0]; i++)
        point_result_take_line(&r, gpu[i]);
    unsigned char done[1];
    unlink(path);
    int fd = results_open(path, &g, done, err, sizeof err);
    CHECK(fd >= 0 && results_append(fd, &points[0], &r) == 0, "write: %s", err);
    close(fd);
    CHECK(csv_table_read(path, &t, err, sizeof err) == 0, "read back: %s", err);
    CHECK(t.n_cols == PEAKS_N_COLUMNS && t.n_rows == 1 && t.n_bad == 0, "cols %d rows %d bad %d", t.n_cols,
          t.n_rows, t.n_bad);
    for (int c = 0; c < t.n_cols && t.n_rows == 1; c++) {
        CHECK(!strcmp(t.header[c], peaks_columns[c].name), "header column %d is %s", c, t.header[c]);
        CHECK(t.rows[0].fields[c][0], "column %s is empty for a point that has every value", t.header[c]);
    }
    if (t.n_rows == 1) {
        char *const *f = t.rows[0].fields;
        CHECK(!strcmp(f[PEAKS_COL_step1_s], "5.0000"), "step1_s %s", f[PEAKS_COL_step1_s]);
        CHECK(!strcmp(f[PEAKS_COL_backward_gpu_allocated_peak_mib], "3.000") &&
                  !strcmp(f[PEAKS_COL_optimizer_gpu_allocated_peak_mib], "2.500") &&
                  !strcmp(f[PEAKS_COL_forward_gpu_reserved_peak_mib], "4.000"),
              "device phase peaks %s %s %s", f[PEAKS_COL_backward_gpu_allocated_peak_mib],
              f[PEAKS_COL_optimizer_gpu_allocated_peak_mib], f[PEAKS_COL_forward_gpu_reserved_peak_mib]);
        CHECK(!strcmp(f[PEAKS_COL_gpu_allocated_peak_mib], "3.000") && !strcmp(f[PEAKS_COL_gpu_reserved_peak_mib], "4.000") &&
                  !strcmp(f[PEAKS_COL_gpu_context_mib], "500.000") && !strcmp(f[PEAKS_COL_gpu_total_mib], "143771.000") &&
                  !strcmp(f[PEAKS_COL_gpu_name], "NVIDIA H200") && !strcmp(f[PEAKS_COL_cuda_version], "13.0") &&
                  !strcmp(f[PEAKS_COL_driver_version], "13.0"),
              "GPU columns %s %s %s %s %s %s %s", f[PEAKS_COL_gpu_allocated_peak_mib], f[PEAKS_COL_gpu_reserved_peak_mib],
              f[PEAKS_COL_gpu_context_mib], f[PEAKS_COL_gpu_total_mib], f[PEAKS_COL_gpu_name], f[PEAKS_COL_cuda_version],
              f[PEAKS_COL_driver_version]);
        CHECK(!strcmp(f[PEAKS_COL_step_mean_s], "2.0000"), "step_mean_s %s (a cap on steps?)", f[PEAKS_COL_step_mean_s]);
        CHECK(!strcmp(f[PEAKS_COL_mem_limit_mib], "64"), "mem_limit_mib %s", f[PEAKS_COL_mem_limit_mib]);
        CHECK(!strcmp(f[PEAKS_COL_config_hash], "000000001234abcd"), "config_hash %s", f[PEAKS_COL_config_hash]);
        CHECK(!strcmp(f[PEAKS_COL_error], "line one line two"), "error %s", f[PEAKS_COL_error]);
        CHECK(!strcmp(f[PEAKS_COL_cpu_model], "cpu, \"quoted\""), "cpu_model %s", f[PEAKS_COL_cpu_model]);
        CHECK(!strcmp(f[PEAKS_COL_command], "'train' '--batch' '1' '--name' 'a b'"), "command %s", f[PEAKS_COL_command]);
    }
    csv_table_free(&t);
}

/* A command's own out of memory (its MemoryError: exit status 1, no
 * signal) under no limit is its result, and stands. */
static void test_command_oom_stands(void)
{
    struct grid g;
    struct grid_point points[1];
    make_grid(&g, points, 1);
    job.mem_limit = 0;
    const int which[] = {0};
    const char *const status[] = {"oom-command"};
    write_rows(&g, which, status, 1);
    unsigned char done[1];
    char err[512] = "";
    int fd = results_open(path, &g, done, err, sizeof err);
    CHECK(fd >= 0 && done[0] == 1, "command oom stands (%d): %s", done[0], err);
    close(fd);
}

/* Which of 6 points stand after these rows, under the sweep's limits now. */
static void test_which_points_stand(void)
{
    struct grid g;
    struct grid_point points[6];
    make_grid(&g, points, 6);
    job.mem_limit = 0;
    job.timeout_s = 30;
    const int which[] = {0, 1, 2, 3, 4, 5, 5};
    const char *const status[] = {"ok", "timeout", "oom", "oom-torch", "crashed", "ok", "timeout"};
    write_rows(&g, which, status, 7);
    job.timeout_s = 60; /* raised since */
    job.mem_limit = (int64_t)32 << 20;
    unsigned char done[6];
    char err[512];
    int fd = results_open(path, &g, done, err, sizeof err);
    CHECK(fd >= 0, "resume: %s", err);
    close(fd);
    /* ok; timeout under 30 s < 60 s; watchdog oom with no limit then; oom
     * inside libtorch; crashed; ok then a later timeout under 30 s. */
    const unsigned char want[] = {1, 0, 0, 1, 1, 0};
    for (int i = 0; i < 6; i++)
        CHECK(done[i] == want[i], "point %d: done %d, expected %d", i, done[i], want[i]);

    /* Under the same timeout a timeout stands. */
    job.timeout_s = 30;
    fd = results_open(path, &g, done, err, sizeof err);
    CHECK(fd >= 0 && done[1] == 1 && done[5] == 1, "same timeout: done %d %d", done[1], done[5]);
    close(fd);
    job.timeout_s = 60;
}

static void test_refusals(void)
{
    struct grid g;
    struct grid_point points[3];
    make_grid(&g, points, 3);
    const int which[] = {0, 1, 2};
    const char *const status[] = {"ok", "ok", "ok"};
    write_rows(&g, which, status, 3);
    struct stat before;
    stat(path, &before);
    unsigned char done[3];
    char err[512], want[512];

    job.seed = 2;
    CHECK(results_open(path, &g, done, err, sizeof err) == RESULTS_BAD_INPUT, "other seed accepted");
    snprintf(want, sizeof want, "%s:2: point j/tiny/cpu/full/b1/s8 was measured with seed 1; the sweep now says 2: "
             "use another -o DIR or move peaks.csv away", path);
    CHECK(!strcmp(err, want), "message: %s", err);
    job.seed = 1;

    points[1].model_source = "/models/other/config.json";
    CHECK(results_open(path, &g, done, err, sizeof err) == RESULTS_BAD_INPUT, "other model source accepted");
    CHECK(strstr(err, ":3: point j/tiny/cpu/full/b2/s8 was measured with model_source tiny; the sweep now says "
                      "/models/other/config.json"), "message: %s", err);
    points[1].model_source = "tiny";

    /* A sweep of other points: the file is another sweep's. */
    snprintf(points[0].id, sizeof points[0].id, "k/a");
    snprintf(points[1].id, sizeof points[1].id, "k/b");
    CHECK(results_open(path, &g, done, err, sizeof err) == RESULTS_BAD_INPUT, "another sweep's rows accepted");
    snprintf(want, sizeof want, "%s holds 2 points that test.sweep does not define (first: j/tiny/cpu/full/b1/s8 "
             "at line 2): it belongs to another sweep; use another -o DIR", path);
    CHECK(!strcmp(err, want), "message: %s", err);
    struct stat after;
    stat(path, &after);
    CHECK(after.st_size == before.st_size, "refusing changed the file: %lld -> %lld bytes",
          (long long)before.st_size, (long long)after.st_size);
}

/* 50,000 points all done: a scan per point would compare 1.25e9 ids. */
static void test_resume_is_linear(void)
{
    enum { N = 50000 };
    static struct grid_point points[N];
    static int which[N];
    static const char *status[N];
    static unsigned char done[N];
    struct grid g;
    make_grid(&g, points, N);
    for (int i = 0; i < N; i++) {
        which[i] = i;
        status[i] = "ok";
    }
    write_rows(&g, which, status, N);
    char err[512];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int fd = results_open(path, &g, done, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK(fd >= 0, "resume of %d points: %s", N, err);
    close(fd);
    int n_done = 0;
    for (int i = 0; i < N; i++)
        n_done += done[i];
    CHECK(n_done == N, "%d of %d done", n_done, N);
    CHECK(s < 5, "resuming %d points took %.1f s", N, s);
}

/* Every column says what it holds (docs/peaks-csv.md is printed from
 * these, and tests/docs_test.sh checks the committed file). */
static void test_every_column_is_described(void)
{
    for (int i = 0; i < PEAKS_N_COLUMNS; i++)
        CHECK(peaks_columns[i].what[0], "peaks.csv column %s has no description in settings/peaks_columns.h",
              peaks_columns[i].name);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/peakfit-results-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    test_header_and_columns();
    test_which_points_stand();
    test_command_oom_stands();
    test_refusals();
    test_resume_is_linear();
    test_every_column_is_described();
    unlink(path);
    rmdir(dir);
    CHECK_DONE();
}
