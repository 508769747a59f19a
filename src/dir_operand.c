/* dir_operand.c: the commands whose one operand is a results DIR (fit,
 * plot): the usage when it is not one, else its peaks.csv fitted. */
#include <stdio.h>
#include "fit/fit_set.h"
#include "src/commands.h"
#include "util/exit_status.h"

int dir_operand_open(const char *command, int argc, char **argv, struct fit_set *set)
{
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit %s DIR\n", command);
        return EXIT_BAD_INPUT;
    }
    return fit_set_open(argv[1], set) == 0 ? EXIT_DONE : EXIT_BAD_INPUT;
}
