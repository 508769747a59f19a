/* worker_main.c: peakfit-worker, the one binary that loads libtorch:
 * measures one point for the runner (runner/worker.c), or says what its
 * libtorch offers (--facts, for peakfit's runner/torch_facts.c). */
#include <stdio.h>
#include <string.h>
#include "peakfit_torch.h"
#include "runner/torch_facts.h"
#include "runner/worker.h"
#include "sweeps/device.h"
#include "util/exit_status.h"

/* The libtorch facts, and whether each kind named is there to use. */
static int print_facts(int n_kinds, char **kinds)
{
    printf("%s %s\n", TORCH_FACTS_VERSION, pf_torch_version());
    printf("%s %d\n", TORCH_FACTS_CUDA, pf_cuda_compiled());
    for (int i = 0; i < n_kinds; i++)
        if (strlen(kinds[i]) < 16 && device_name_is_known(kinds[i]))
            printf("%s %s %d\n", TORCH_FACTS_AVAILABLE, kinds[i], pf_device_available(kinds[i]));
    return fflush(stdout) == 0 ? EXIT_DONE : EXIT_IO;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--facts") == 0)
        return print_facts(argc - 2, argv + 2);
    return worker_main(argc, argv);
}
