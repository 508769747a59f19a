/* libFuzzer target: any bytes as a safetensors file. The header check
 * must accept or refuse with a message naming the file, never read
 * outside the buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "peakfit_torch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (pf_safetensors_check("fuzz.safetensors", data, size) != PF_OK &&
        strncmp(pf_last_error(), "fuzz.safetensors: ", 18) != 0)
        abort();
    return 0;
}
