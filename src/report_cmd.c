/* report_cmd.c: `peakfit report DIR [--reference PUBLISHED.csv] [--html]`: DIR/report.md
 * (reports/report.c). */
#include <stddef.h>
#include <stdio.h>
#include "fit/fit_set.h"
#include "reports/report.h"
#include "src/commands.h"
#include "util/exit_status.h"
#include "util/options.h"

struct report_args {
    const char *dir, *reference;
    int html;
};

static const struct opt_row report_rows[] = {
    {"reference", 0, "PUBLISHED.csv", OPT_TEXT, offsetof(struct report_args, reference),
     .help = "published peaks to compare with (docs/report.md)"},
    {"html", 0, NULL, OPT_FLAG, offsetof(struct report_args, html),
     .help = "also DIR/report.html: one self-contained page, the charts inline (docs/report.md)"},
};

const struct opt_table report_options = OPT_TABLE("report", "DIR", report_rows, NULL);

int report_main(int argc, char **argv)
{
    struct report_args a = {0};
    char why[1024];
    int n, bad = opt_parse_args(&report_options, argc, argv, &a, &a.dir, 1, &n, why, sizeof why);
    if (bad || n != 1) {
        fprintf(stderr, "peakfit report: %s\n", bad ? why : "needs DIR");
        opt_print_synopsis(&report_options, stderr);
        return EXIT_BAD_INPUT;
    }
    struct fit_set set;
    if (fit_set_open(a.dir, &set) != 0)
        return EXIT_BAD_INPUT;
    int rc = report_write(&set, a.reference, a.html);
    fit_set_free(&set);
    return rc;
}
