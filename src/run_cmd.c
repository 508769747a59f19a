/* run_cmd.c: `peakfit run SWEEP -o DIR [-j N] [--point K [--chunk C]]`
 * (runner/run_sweep.c runs it; its options are runner/run_args.c's). */
#include "runner/run_sweep.h"
#include "src/commands.h"
#include "util/exit_status.h"

int run_sweep_main(int argc, char **argv)
{
    struct run_options o;
    if (run_sweep_args_or_say(argc, argv, &o) != 0)
        return EXIT_BAD_INPUT;
    return run_sweep_with(&o);
}
