/* run -j on GPUs: which GPUs there are to hand out (CUDA_VISIBLE_DEVICES as
 * CUDA reads it, else the driver's folder), and where a GPU point may
 * start: a plain cuda point in a slot with a GPU of its own, a point on a
 * device the sweep names (cuda:N, mps) with no other GPU point beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "proc/gpu_slots.h"
#include "tests/check.h"

static void lists(void)
{
    struct gpu_slots g;
    gpu_slots_read("0,1", "/nonexistent", &g);
    CHECK(g.n == 2 && !strcmp(g.id[0], "0") && !strcmp(g.id[1], "1"), "\"0,1\": %d GPUs", g.n);
    gpu_slots_read("3, GPU-8f2a-77", NULL, &g);
    CHECK(g.n == 2 && !strcmp(g.id[0], "3") && !strcmp(g.id[1], "GPU-8f2a-77"), "indices and UUIDs as written: %d %s",
          g.n, g.id[1]);
    gpu_slots_read("2,-1,5", NULL, &g);
    CHECK(g.n == 1 && !strcmp(g.id[0], "2"), "the list ends at a negative entry: %d", g.n);
    gpu_slots_read("", "/nonexistent", &g);
    CHECK(g.n == 0, "an empty CUDA_VISIBLE_DEVICES hides every GPU: %d", g.n);
    gpu_slots_read(NULL, "/nonexistent", &g);
    CHECK(g.n == 0, "no driver folder, no GPU: %d", g.n);
}

static void driver_folder(void)
{
    char dir[] = "/tmp/peakfit-gpus-XXXXXX", path[64];
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    const char *bus[] = {"0000:17:00.0", "0000:3d:00.0", "0000:b1:00.0"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, bus[i]);
        mkdir(path, 0700);
    }
    struct gpu_slots g;
    gpu_slots_read(NULL, dir, &g);
    CHECK(g.n == 3 && !strcmp(g.id[0], "0") && !strcmp(g.id[2], "2"), "three GPUs from the driver: %d", g.n);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, bus[i]);
        rmdir(path);
    }
    rmdir(dir);
}

static void placement(void)
{
    struct gpu_slots two, none;
    gpu_slots_read("0,1", NULL, &two);
    gpu_slots_read("", NULL, &none);
    CHECK(gpu_use_of(&two, 1, "cuda") == GPU_NONE, "one worker at a time: the device as named");
    CHECK(gpu_use_of(&two, 4, "cpu") == GPU_NONE, "a CPU point uses no GPU");
    CHECK(gpu_use_of(&two, 4, "cuda") == GPU_OWN, "cuda under -j: its slot's GPU");
    CHECK(gpu_use_of(&two, 4, "cuda:1") == GPU_EXCLUSIVE, "cuda:1: the GPU the sweep names");
    CHECK(gpu_use_of(&two, 4, "mps") == GPU_EXCLUSIVE, "mps: one device");
    CHECK(gpu_use_of(&none, 4, "cuda") == GPU_EXCLUSIVE, "cuda with no GPU listed: one at a time");

    enum gpu_use own[] = {GPU_OWN}, excl[] = {GPU_EXCLUSIVE}, cpu[] = {GPU_NONE, GPU_NONE};
    CHECK(gpu_may_start(&two, 0, GPU_OWN, NULL, 0), "slot 0 has GPU 0");
    CHECK(gpu_may_start(&two, 1, GPU_OWN, own, 1), "slot 1 has GPU 1 beside slot 0's");
    CHECK(!gpu_may_start(&two, 2, GPU_OWN, own, 1), "slot 2 has no GPU of its own");
    CHECK(!gpu_may_start(&two, 1, GPU_OWN, excl, 1), "not beside a point on a named GPU");
    CHECK(!gpu_may_start(&two, 1, GPU_EXCLUSIVE, own, 1), "a named GPU waits for the others");
    CHECK(!gpu_may_start(&two, 1, GPU_EXCLUSIVE, excl, 1), "two named-GPU points never at once");
    CHECK(gpu_may_start(&two, 3, GPU_EXCLUSIVE, cpu, 2), "a named GPU beside CPU points, in any slot");
    CHECK(gpu_may_start(&two, 3, GPU_NONE, own, 1), "a CPU point beside a GPU point");
}

int main(void)
{
    lists();
    driver_folder();
    placement();
    CHECK_DONE();
}
