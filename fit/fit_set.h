/* fit_set.h: every group of a results directory, fitted. plot, report and
 * calc all start from here, so they agree with `peakfit fit`. */
#ifndef PEAKFIT_FIT_SET_H
#define PEAKFIT_FIT_SET_H
#include "fit/group_fit.h"

struct fit_set {
    char dir[4096];
    struct observations obs;
    struct group_fit *groups; /* per group key x metric */
    int n_groups;
};

/* Reads DIR/peaks.csv and fits every group but technique load. Returns 0,
 * or -1 with err set; set is freeable either way. */
int fit_set_load(const char *dir, struct fit_set *set, char *err, unsigned long errlen);
/* fit_set_load for a command: says what is wrong on stderr itself; on
 * failure it frees what the load made (set is then empty: freeing it again
 * is harmless), so a caller frees set only after a 0. */
int fit_set_open(const char *dir, struct fit_set *set);
void fit_set_free(struct fit_set *set);
/* The group with this key and metric, or NULL. */
const struct group_fit *fit_set_find(const struct fit_set *set, const struct group_key *key, enum metric metric);
#endif
