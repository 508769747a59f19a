/* report.h: `peakfit report DIR` writes DIR/report.md. */
#ifndef PEAKFIT_REPORT_H
#define PEAKFIT_REPORT_H
#include "fit/fit_set.h"

/* Returns 0, or -1 after saying why. */
/* reference_csv: a published table to set beside ours, or NULL. */
int report_write(const struct fit_set *set, const char *reference_csv);
int report_main(int argc, char **argv);
#endif
