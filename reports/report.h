/* report.h: `peakfit report DIR` writes DIR/report.md. */
#ifndef PEAKFIT_REPORT_H
#define PEAKFIT_REPORT_H
#include "fit/fit_set.h"
#include "util/options.h"

/* reference_csv: a published table to set beside ours, or NULL. Returns an
 * exit status (util/exit_status.h) after saying what went wrong: a bad
 * reference is bad input, and nothing is written then. */
int report_write(const struct fit_set *set, const char *reference_csv);
int report_main(int argc, char **argv);
/* report's options: the parser's table, its --help and synopsis. */
extern const struct opt_table report_options;
#endif
