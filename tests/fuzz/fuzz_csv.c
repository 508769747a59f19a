/* libFuzzer target: any bytes as peaks.csv, through the CSV table reader
 * and the observation loader the fit uses. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include "tests/fuzz/fuzz_file.h"
#include "fit/observations.h"
#include "util/csv_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_write_file(path, sizeof path, "csv", data, size) != 0)
        return 0;
    struct csv_table t;
    char err[700];
    if (csv_table_read(path, &t, err, sizeof err) == 0)
        csv_table_free(&t);
    struct observations o;
    if (observations_load(path, &o, err, sizeof err) == 0)
        observations_free(&o);
    unlink(path);
    return 0;
}
