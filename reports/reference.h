/* reference.h: a published measurement table (report --reference), read
 * and checked before anything is written (reference_load.c). */
#ifndef PEAKFIT_REFERENCE_H
#define PEAKFIT_REFERENCE_H
#include "fit/fit_set.h"
#include "util/csv_table.h"

/* Its columns: work, technique, batch, seq_len, peak_above_baseline_mb, and
 * optionally model. */
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
/* Does our peaks.csv model value name the reference's model (theirs NULL:
 * the file has no model column, so any)? By name or display name, case aside. */
int reference_same_model(const char *ours, const char *theirs);
#endif
