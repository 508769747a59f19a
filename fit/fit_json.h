/* fit_json.h: DIR/fit.json, a fit that travels without its measurements:
 * every group's coefficients and covariance for both models, the choice,
 * the floor and knee, what a prediction interval needs,
 * the measured range, the baseline, F's decomposition (weights, grads,
 * optimizer state) and where it was measured. calc plans from it exactly
 * as from DIR (tests/fit_json_test.sh). */
#ifndef PEAKFIT_FIT_JSON_H
#define PEAKFIT_FIT_JSON_H
#include "fit/fit_set.h"

/* 2: the floor (max(P, line)) and prediction intervals; calc refuses others. */
#define FIT_JSON_VERSION 2

/* Writes DIR/fit.json atomically; returns 0, or -1 after saying why. */
int fit_json_write(const struct fit_set *set);
/* Reads a fit.json into set (groups without points: enough to predict).
 * Returns 0, or -1 with "PATH: reason" in err; set is freeable either way. */
int fit_json_load(const char *path, struct fit_set *set, char *err, unsigned long errlen);
#endif
