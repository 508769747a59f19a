/* near_name.h: "did you mean": the known name closest to a mistyped one.
 * Offer each name of a table in turn; the closest within a small edit
 * distance (letters added, dropped, changed or swapped, case aside) wins. */
#ifndef PEAKFIT_NEAR_NAME_H
#define PEAKFIT_NEAR_NAME_H

struct near_name {
    const char *word; /* what was written */
    const char *best; /* the closest name offered so far, or NULL */
    int best_distance;
};

void near_name_start(struct near_name *n, const char *word);
void near_name_offer(struct near_name *n, const char *name);
/* The closest name, or NULL when none is near enough to be a typo: at most
 * one edit for words of up to 4 characters, two for longer ones. */
const char *near_name_best(const struct near_name *n);
#endif
