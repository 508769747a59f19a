/* report_sections.h: the sections of report.md, each from the fit set. */
#ifndef PEAKFIT_REPORT_SECTIONS_H
#define PEAKFIT_REPORT_SECTIONS_H
#include <stdio.h>
#include "fit/fit_set.h"

void section_environment(FILE *f, const struct fit_set *set);
void section_sweep(FILE *f, const struct fit_set *set);
void section_raw_table(FILE *f, const struct fit_set *set);
void section_fits(FILE *f, const struct fit_set *set);
void section_decomposition(FILE *f, const struct fit_set *set);
void section_charts(FILE *f, const struct fit_set *set);
void section_failures(FILE *f, const struct fit_set *set);
void section_calculator(FILE *f, const struct fit_set *set);
void section_time(FILE *f, const struct fit_set *set);
/* The published table side by side with ours; returns -1 when the
 * reference file cannot be read. */
int section_reference(FILE *f, const struct fit_set *set, const char *reference_csv);
#endif
