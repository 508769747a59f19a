/* libFuzzer target: any bytes as peaks.csv, through the CSV table reader,
 * the observation loader the fit uses, and results_open resuming a small
 * sweep over it. Each must return a result or an error naming the file,
 * never crash, read out of bounds or leak. Links without libtorch. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/fuzz/fuzz_file.h"
#include "fit/observations.h"
#include "store/results_csv.h"
#include "util/csv_table.h"

static void check_names_file(const char *err, const char *path)
{
    if (strncmp(err, path, strlen(path)) != 0)
        abort();
}

/* The points of resume.sweep's grid (tests/bad-csvs/resume.sweep). */
static void resume(const char *path)
{
    static struct sweep_job job = {.name = "j", .steps = 2, .timeout_s = 60, .threads = 1};
    static struct grid_point points[3] = {
        {.job = &job, .model = "tiny", .model_source = "tiny", .device = "cpu", .technique = PF_TECH_LOAD,
         .id = "j/tiny/cpu/load/b0/s0/st2/r0"},
        {.job = &job, .model = "tiny", .model_source = "tiny", .device = "cpu", .technique = PF_TECH_INFERENCE,
         .batch = 1, .seq_len = 8, .id = "j/tiny/cpu/inference/b1/s8/st2/r0"},
        {.job = &job, .model = "tiny", .model_source = "tiny", .device = "cpu", .technique = PF_TECH_INFERENCE,
         .batch = 2, .seq_len = 8, .id = "j/tiny/cpu/inference/b2/s8/st2/r0"}};
    struct grid g = {points, 3, "resume.sweep"};
    unsigned char done[3];
    char err[2048] = "";
    int fd = results_open(path, &g, done, err, sizeof err);
    if (fd >= 0)
        close(fd);
    else
        check_names_file(err, path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_write_file(path, sizeof path, "csv", data, size) != 0)
        return 0;
    struct csv_table t;
    char err[700] = "";
    if (csv_table_read(path, &t, err, sizeof err) == 0)
        csv_table_free(&t);
    else
        check_names_file(err, path);
    struct observations o;
    if (observations_load(path, &o, err, sizeof err) == 0)
        observations_free(&o);
    else
        check_names_file(err, path);
    resume(path);
    unlink(path);
    return 0;
}
