/* fuzz_file.h: the fuzzers' input as a file, since the readers take paths. */
#ifndef PEAKFIT_FUZZ_FILE_H
#define PEAKFIT_FUZZ_FILE_H
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/* Writes data to /tmp/peakfit-fuzz-PID.EXT; returns 0 or -1. */
static int fuzz_write_file(char *path, size_t size, const char *ext, const uint8_t *data, size_t n)
{
    snprintf(path, size, "/tmp/peakfit-fuzz-%d.%s", (int)getpid(), ext);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fwrite(data, 1, n, f);
    return fclose(f);
}
#endif
