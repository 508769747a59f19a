/* verify_runs.c: DIR/verify-NAME/peaks.csv, read as held-out points. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/verify_runs.h"

static int append(struct observations *obs, const struct observations *more)
{
    if (more->n_ok == 0)
        return 0;
    struct observation *bigger = realloc(obs->ok, (size_t)(obs->n_ok + more->n_ok) * sizeof *bigger);
    if (!bigger)
        return -1;
    obs->ok = bigger;
    for (int i = 0; i < more->n_ok; i++) {
        obs->ok[obs->n_ok] = more->ok[i];
        obs->ok[obs->n_ok++].holdout = 1;
    }
    return 0;
}

int verify_runs_add(const char *dir, struct observations *obs, char *err, unsigned long errlen)
{
    char pattern[4200], why[4600];
    glob_t found;
    snprintf(pattern, sizeof pattern, "%s/verify-*/peaks.csv", dir);
    if (glob(pattern, 0, NULL, &found) != 0)
        return 0; /* none */
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < found.gl_pathc; i++) {
        struct observations more;
        if (observations_load(found.gl_pathv[i], &more, why, sizeof why) != 0) {
            fprintf(stderr, "peakfit: %s: skipped\n", why);
            continue;
        }
        rc = append(obs, &more);
        if (rc != 0)
            snprintf(err, errlen, "%s: out of memory", found.gl_pathv[i]);
        observations_free(&more);
    }
    globfree(&found);
    return rc;
}
