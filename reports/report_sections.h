/* report_sections.h: the sections of report.md, each from the fit set. */
#ifndef PEAKFIT_REPORT_SECTIONS_H
#define PEAKFIT_REPORT_SECTIONS_H
#include <stdio.h>
#include "fit/fit_set.h"
#include "reports/reference.h"

/* report_summary.c: the title and the answer, first. */
void section_summary(FILE *f, const struct fit_set *set);
void section_environment(FILE *f, const struct fit_set *set);
void section_sweep(FILE *f, const struct fit_set *set);
void section_raw_table(FILE *f, const struct fit_set *set);
void section_fits(FILE *f, const struct fit_set *set);
void section_decomposition(FILE *f, const struct fit_set *set);
void section_charts(FILE *f, const struct fit_set *set);
void section_failures(FILE *f, const struct fit_set *set);
void section_calculator(FILE *f, const struct fit_set *set);
void section_time(FILE *f, const struct fit_set *set);
/* report_phases.c: the floor and the knee, which bound set each point; flagged fits. */
void section_phases(FILE *f, const struct fit_set *set);
void section_poor_fits(FILE *f, const struct fit_set *set);
/* report_holdout.c: the held-out points against their predictions. */
void section_holdout(FILE *f, const struct fit_set *set);
/* report_peers.c: a command job's groups beside the built-in worker's at the same points. */
void section_peers(FILE *f, const struct fit_set *set);
/* report_ranks.c: each rank's peak, where a command started several. */
void section_ranks(FILE *f, const struct fit_set *set);

/* The published table side by side with ours. */
void section_reference(FILE *f, const struct fit_set *set, const struct reference *ref);
#endif
