/* report.h: DIR/report.md, as `peakfit report DIR` (src/report_cmd.c) writes it. */
#ifndef PEAKFIT_REPORT_H
#define PEAKFIT_REPORT_H
#include "fit/fit_set.h"

/* reference_csv: a published table to set beside ours, or NULL; html:
 * also DIR/report.html (reports/report_html.h). Returns an
 * exit status (util/exit_status.h) after saying what went wrong: a bad
 * reference is bad input, and nothing is written then. */
int report_write(const struct fit_set *set, const char *reference_csv, int html);
#endif
