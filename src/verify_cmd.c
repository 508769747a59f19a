/* verify_cmd.c: `peakfit verify`'s command line; the work is verify/'s
 * (verify_plan.c). */
#include <stdio.h>
#include "fit/fit_set.h"
#include "src/verify_cmd.h"
#include "util/exit_status.h"
#include "util/options.h"
#include "verify/verify_options.h"
#include "verify/verify_plan.h"

static int usage(const char *why)
{
    fprintf(stderr, "peakfit verify: %s\n", why);
    opt_print_synopsis(&verify_options, stderr);
    return EXIT_BAD_INPUT;
}

static int parse_args(int argc, char **argv, struct calc_request *r, const char **dir)
{
    char why[1024];
    return verify_parse_args(argc, argv, r, dir, why, sizeof why) == 0 ? 0 : usage(why);
}

int verify_main(int argc, char **argv)
{
    struct calc_request req = {.replicas = 1}; /* the technique's default is its option row's */
    const char *dir = NULL;
    if (parse_args(argc, argv, &req, &dir) != 0)
        return EXIT_BAD_INPUT;
    struct fit_set set;
    int rc = fit_set_open(dir, &set) == 0 ? verify_plan(dir, &set, &req) : EXIT_BAD_INPUT;
    fit_set_free(&set);
    return rc;
}
