/* libFuzzer target: any bytes as a config.json. model_spec_load must
 * return a model or an error message that names the file, never crash,
 * overflow or recurse without bound. Pure C: no libtorch is linked. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/fuzz/fuzz_file.h"
#include "models/model_spec.h"
#include "models/param_count.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_write_file(path, sizeof path, "json", data, size) != 0)
        return 0;
    static struct model_spec spec;
    char err[1024] = "";
    if (model_spec_load(path, &spec, err, sizeof err) != 0) {
        if (strncmp(err, path, strlen(path)) != 0)
            abort(); /* every error names the file */
    } else if (model_param_count(&spec.config) <= 0) {
        abort(); /* an accepted config has weights */
    }
    unlink(path);
    return 0;
}
