/* auto_cmd.c: `peakfit auto MODEL ...`: its options and model, then the
 * rounds (autosweep/auto_rounds.h). */
#include <stdio.h>
#include "autosweep/auto_args.h"
#include "autosweep/auto_rounds.h"
#include "autosweep/auto_slices.h"
#include "src/auto_cmd.h"
#include "util/exit_status.h"

int auto_main(int argc, char **argv)
{
    struct auto_request r = {0}; /* the defaults are the option rows' (auto_parse_args) */
    struct model_spec spec;
    char err[4400];
    if (auto_parse_args(argc, argv, &r, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit auto: %s\n", err);
        opt_print_synopsis(&auto_options, stderr);
        return EXIT_BAD_INPUT;
    }
    if (auto_load_model(&r, &spec, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    return auto_rounds_run(&r, &spec);
}
