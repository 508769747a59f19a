/* libFuzzer target: any bytes as a sweep file (linked without libtorch:
 * the parser needs none). sweep_load must return a
 * sweep or an error message, never crash or read out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/fuzz/fuzz_file.h"
#include "sweeps/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_write_file(path, sizeof path, "sweep", data, size) != 0)
        return 0;
    char err[1024] = "";
    struct sweep *s = sweep_load(path, err, sizeof err);
    if (!s && strncmp(err, path, strlen(path)) != 0)
        abort(); /* every error names the file */
    sweep_free(s);
    unlink(path);
    return 0;
}
