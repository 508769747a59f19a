/* report_sections.h: the sections of report.md, each from the fit set. */
#ifndef PEAKFIT_REPORT_SECTIONS_H
#define PEAKFIT_REPORT_SECTIONS_H
#include <stdio.h>
#include "fit/fit_set.h"
#include "util/csv_table.h"

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

/* A published measurement table (report --reference), read and checked
 * before anything is written. Its columns: work, technique, batch, seq_len,
 * peak_above_baseline_mb, and optionally model. */
struct reference_row {
    const char *model; /* the row's model; NULL when the file has no model column */
    const char *work, *technique;
    long batch, seq_len;
    double mb;
    /* Linked once at load (a sort), so that walking a series is linear:
     * the row of the same model, work, technique and seq_len with the next
     * larger batch (NULL: none); whether the row has its series' smallest
     * nonzero batch; the row of the same model at full, batch 8, seq_len
     * 256 (NULL: none). */
    const struct reference_row *next, *full_8_256;
    int starts_series;
};
struct reference {
    const char *path;
    struct csv_table table; /* the rows point into it */
    struct reference_row *rows;
    int n;
    int has_model;
};
/* Reads path and checks each row's model against the fit set's. Returns 0,
 * or -1 with "PATH:LINE: why" in err (unreadable, malformed, or measured on
 * a model that is not ours). A file without a model column is accepted
 * when the set holds one model, with a warning on stderr. */
int reference_load(const char *path, const struct fit_set *set, struct reference *ref, char *err, size_t errlen);
void reference_free(struct reference *ref);
/* The published table side by side with ours. */
void section_reference(FILE *f, const struct fit_set *set, const struct reference *ref);
#endif
