/* verify_options.c: `peakfit verify`'s options, one table for the option
 * engine (util/options.h): its parser, --help and synopsis. They fill a
 * calc request, as calc's own (calc_options.c) do. */
#include <stddef.h>
#include <stdio.h>
#include "core/technique.h"
#include "point/setting_options.h"
#include "verify/verify_options.h"

#define VERIFY_FIELD(f) offsetof(struct calc_request, f)
#define GROUP_CHOICE_BASE VERIFY_FIELD(choice)

static const struct opt_row verify_rows[] = {
    {"budget", 0, "SIZE", OPT_SIZE_MIB, VERIFY_FIELD(budget_mib), .flags = OPT_REQUIRED,
     .help = "memory for the whole process, baseline included (24GiB, 512MiB)"},
    SETTING_OPTION("technique", .type = OPT_NAME, .off = VERIFY_FIELD(technique), .def = "full",
                   .names = &stepping_technique_option_names),
    SETTING_OPTION("seq_len", .type = OPT_LONG, .off = VERIFY_FIELD(seq_len), .flags = OPT_DEF_WORDS,
                   .def = "the largest measured"),
    /* Every other axis of the group key, from the settings table. */
    GROUP_CHOICE_OPTION_ROWS
    PLAN_PROCESS_OPTION_ROW(VERIFY_FIELD(process)),
};

const struct opt_table verify_options = SETTING_OPTION_TABLE("verify", "DIR", verify_rows, NULL);

int verify_parse_args(int argc, char **argv, struct calc_request *r, const char **dir, char *why, size_t size)
{
    int n;
    if (opt_table_defaults(&verify_options, r, NULL, why, size) != 0 ||
        opt_parse_args(&verify_options, argc, argv, r, dir, 1, &n, why, size) != 0)
        return -1;
    if (n == 1)
        return 0;
    snprintf(why, size, "needs one DIR");
    return -1;
}
