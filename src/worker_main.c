/* worker_main.c: peakfit-worker, the one binary that loads libtorch:
 * measures one point for the runner (worker/worker.c), or says what its
 * libtorch offers (--facts, for peakfit's worker/torch_facts.c). */
#include <stdio.h>
#include <string.h>
#include "peakfit_torch.h"
#include "protocol/point_result.h"
#include "worker/torch_facts.h"
#include "worker/worker.h"
#include "core/device.h"
#include "core/optimizer.h"
#include "protocol/worker_options.h"
#include "util/exit_status.h"
#include "util/version.h"

/* The libtorch facts, whether each kind named is there to use, and the
 * optimizers it cannot run there. */
static int print_facts(int n_kinds, char **kinds)
{
    printf("%s %s\n", TORCH_FACTS_VERSION, pf_torch_version());
    printf("%s %d\n", TORCH_FACTS_CUDA, pf_cuda_compiled());
    for (int i = 0; i < n_kinds; i++) {
        if (strlen(kinds[i]) >= 16 || !device_name_is_known(kinds[i]))
            continue;
        printf("%s %s %d\n", TORCH_FACTS_AVAILABLE, kinds[i], pf_device_available(kinds[i]));
        for (int o = 0; o < PF_OPT_COUNT; o++)
            if (pf_optimizer_check((pf_optimizer)o, kinds[i]) != PF_OK)
                printf("%s %s %s %s\n", TORCH_FACTS_REFUSES, kinds[i], optimizer_name((pf_optimizer)o),
                       pf_last_error());
    }
    return fflush(stdout) == 0 ? EXIT_DONE : EXIT_IO;
}

/* As `peakfit --version` prints it, with this binary's name. */
static int print_version(void)
{
    printf("peakfit-worker %s\nlibtorch %s\ncuda %s\n", PEAKFIT_VERSION, pf_torch_version(),
           pf_cuda_compiled() ? "compiled in" : "not compiled in");
    return fflush(stdout) == 0 ? EXIT_DONE : EXIT_IO;
}

static int print_usage(void)
{
    printf("usage: peakfit-worker --model SPEC --technique T [--batch B --seq-len S] [options]\n"
           "measure one point (what `peakfit run` starts for each point; `peakfit worker` runs it)\n"
           "       peakfit-worker --facts [DEVICE...]: libtorch's version, CUDA, and whether each device is there\n"
           "         (and the optimizers it cannot run there)\n"
           "options:\n");
    opt_print_help(worker_options(), stdout);
    fputs(WORKER_EXIT_STATUS_TEXT, stdout);
    return fflush(stdout) == 0 ? EXIT_DONE : EXIT_IO;
}

/* The same words as peakfit's commands: --help or -h, --version or -V. */
static int asks(int argc, char **argv, const char *long_name, const char *short_name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], long_name) == 0 || strcmp(argv[i], short_name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--facts") == 0)
        return print_facts(argc - 2, argv + 2);
    if (asks(argc, argv, "--help", "-h"))
        return print_usage();
    if (asks(argc, argv, "--version", "-V"))
        return print_version();
    return worker_main(argc, argv);
}
