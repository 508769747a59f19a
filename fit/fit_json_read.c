/* fit_json_read.c: fit.json back into a fit_set, for calc. Every field a
 * prediction needs is checked; a missing or mistyped one names the file,
 * the group and the field. */
#include <gsl/gsl_cdf.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/fit_json.h"
#include "util/input_file.h"

enum { FIT_JSON_MAX_BYTES = 64 << 20 };

struct reader {
    const char *path;
    int group;          /* index in "groups" */
    char *err;
    unsigned long errlen;
};

static int missing(struct reader *r, const char *field, const char *want)
{
    snprintf(r->err, r->errlen, "%s: group %d: \"%s\" must be %s", r->path, r->group, field, want);
    return -1;
}

/* What a number may be: every number is checked against its range on the
 * way in (a negative baseline once planned b = 187,774,689). Memory is in
 * MiB, at most MIB_MAX (10^15 MiB, past any machine's memory, where GSL's
 * quantiles still compute). */
struct range { double lo, hi; };
#define MIB_MAX 1e15
static const struct range SIZE_MIB = {0, MIB_MAX};     /* a size: never negative */
static const struct range SIGNED_MIB = {-MIB_MAX, MIB_MAX}; /* a coefficient, an intercept, a difference */
static const struct range SQUARES = {0, MIB_MAX * MIB_MAX}; /* a sum of squares, a variance */
static const struct range SIGNED_SQUARES = {-MIB_MAX * MIB_MAX, MIB_MAX * MIB_MAX}; /* a covariance */
static const struct range TOKENS = {0, 1e18};
static const struct range TOKEN_SQUARES = {0, 1e36};
static const struct range PROBABILITY = {0, 1};
static const struct range F_STATISTIC = {0, 1e300};
/* t_0.975 at 1 to infinite degrees of freedom, or 0 where there are none */
static const struct range T_QUANTILE = {0, 12.8};
static const struct range R_SQUARED = {-1e6, 1};
static const struct range REL_SD = {0, 10};
static const struct range LEVERAGE = {0, 1e12}; /* x' (X'X)^-1 x: far extrapolations reach thousands */

static int out_of_range(struct reader *r, const char *field, struct range want)
{
    char words[96];
    snprintf(words, sizeof words, "a number from %g to %g, or null", want.lo, want.hi);
    return missing(r, field, words);
}

/* A value (a member, an array's element): a number in its range, or null
 * (NAN). */
static int get_element(struct reader *r, json_t *v, const char *field, struct range want, double *out)
{
    if (json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v) || !(json_number_value(v) >= want.lo && json_number_value(v) <= want.hi))
        return out_of_range(r, field, want);
    *out = json_number_value(v);
    return 0;
}

/* A number in its range, or null for one that is not known (NAN). */
static int get_number(struct reader *r, json_t *o, const char *field, struct range want, double *out)
{
    return get_element(r, json_object_get(o, field), field, want, out);
}

/* A field fit.json v2 gained later (the floor's slope): absent is 0. */
static int get_number_or_zero(struct reader *r, json_t *o, const char *field, struct range want, double *out)
{
    *out = 0;
    return json_object_get(o, field) ? get_number(r, o, field, want, out) : 0;
}

static int get_int(struct reader *r, json_t *o, const char *field, long min, long max, int *out)
{
    json_t *v = json_object_get(o, field);
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
        return missing(r, field, "a whole number in range");
    *out = (int)json_integer_value(v);
    return 0;
}

static int get_text(struct reader *r, json_t *o, const char *field, char *out, size_t size)
{
    json_t *v = json_object_get(o, field);
    if (!json_is_string(v) || strlen(json_string_value(v)) >= size)
        return missing(r, field, "a string of fitting length");
    memcpy(out, json_string_value(v), strlen(json_string_value(v)) + 1);
    return 0;
}

/* A p x p matrix of numbers (null: not known). */
static int read_matrix(struct reader *r, json_t *o, const char *field, int p, double m[OLS_MAX_P][OLS_MAX_P])
{
    json_t *a = json_object_get(o, field);
    if (json_array_size(a) != (size_t)p)
        return missing(r, field, "p rows of p numbers");
    for (int i = 0; i < p; i++) {
        json_t *row = json_array_get(a, (size_t)i);
        if (json_array_size(row) != (size_t)p)
            return missing(r, field, "p rows of p numbers");
        for (int j = 0; j < p; j++) {
            if (get_element(r, json_array_get(row, (size_t)j), field, i == j ? SQUARES : SIGNED_SQUARES, &m[i][j]))
                return -1;
        }
    }
    return 0;
}

static int read_ols(struct reader *r, json_t *o, const char *field, struct ols *f)
{
    json_t *v = json_object_get(o, field);
    if (!json_is_object(v))
        return missing(r, field, "an object");
    if (get_int(r, v, "n", 0, 1L << 30, &f->n) || get_int(r, v, "p", 2, OLS_MAX_P, &f->p) ||
        get_number(r, v, "rss", SQUARES, &f->rss) || get_number(r, v, "r2", R_SQUARED, &f->r2) ||
        get_number(r, v, "t975", T_QUANTILE, &f->t975))
        return -1;
    f->identifiable = json_is_true(json_object_get(v, "identifiable"));
    json_t *c = json_object_get(v, "coefficients");
    if (json_array_size(c) != (size_t)f->p)
        return missing(r, field, "an object with p coefficients");
    for (int i = 0; i < f->p; i++)
        if (get_element(r, json_array_get(c, (size_t)i), "coefficients", SIGNED_MIB, &f->c[i]))
            return -1;
    return read_matrix(r, v, "covariance", f->p, f->cov) || read_matrix(r, v, "xtx_inverse", f->p, f->xtx_inv);
}

static int read_choice(struct reader *r, json_t *o, struct group_fit *g)
{
    char metric[16], choice[16];
    if (get_text(r, o, "metric", metric, sizeof metric) || get_text(r, o, "model_choice", choice, sizeof choice))
        return -1;
    g->metric = METRIC_COUNT;
    for (int m = 0; m < METRIC_COUNT; m++)
        if (!strcmp(metric, metric_name((enum metric)m)))
            g->metric = (enum metric)m;
    if (g->metric == METRIC_COUNT)
        return missing(r, "metric", "rss, tensor, allocated or reserved");
    g->choice = !strcmp(choice, "linear") ? CHOICE_LINEAR : !strcmp(choice, "quadratic") ? CHOICE_QUADRATIC
                                                                                       : CHOICE_NONE;
    if (g->choice == CHOICE_NONE && strcmp(choice, "none"))
        return missing(r, "model_choice", "linear, quadratic or none");
    return 0;
}

static int read_measured(struct reader *r, json_t *o, struct group_fit *g)
{
    json_t *m = json_object_get(o, "measured");
    json_t *s = json_object_get(m, "seq_lens");
    if (!json_is_object(m) || !json_array_size(s))
        return missing(r, "measured", "an object with batch_min, batch_max and seq_lens");
    if (get_int(r, m, "batch_min", 0, 1L << 30, &g->min_batch) || get_int(r, m, "batch_max", 0, 1L << 30, &g->max_batch) ||
        get_number(r, m, "tokens_max", TOKENS, &g->max_tokens))
        return -1;
    g->seq_lens = calloc(json_array_size(s), sizeof *g->seq_lens);
    if (!g->seq_lens)
        return missing(r, "measured", "small enough to hold in memory");
    for (size_t i = 0; i < json_array_size(s); i++) {
        json_t *v = json_array_get(s, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1L << 30)
            return missing(r, "seq_lens", "whole numbers");
        g->seq_lens[g->n_seq++] = (int)json_integer_value(v);
    }
    return 0;
}

/* prediction.lower_bound (optional): the allocator-level line and floor
 * under an RSS or reserved fit; the floor as P(0) + slope * T. */
static int read_lower(struct reader *r, json_t *p, struct group_fit *g)
{
    json_t *low = json_object_get(p, "lower_bound"), *c = json_object_get(low, "coefficients");
    double floor0;
    if (!low)
        return 0;
    if (!json_is_array(c) || json_array_size(c) < 2 || json_array_size(c) > OLS_MAX_P)
        return missing(r, "lower_bound", "an object with 2 or 3 coefficients");
    g->lower.p = (int)json_array_size(c);
    for (int i = 0; i < g->lower.p; i++)
        if (get_element(r, json_array_get(c, (size_t)i), "lower_bound", SIGNED_MIB, &g->lower.c[i]))
            return -1;
    if (get_number(r, low, "floor_mib", SIGNED_MIB, &floor0) ||
        get_number_or_zero(r, low, "floor_slope_mib_per_token", SIGNED_MIB, &g->lower_floor.slope) ||
        get_number_or_zero(r, low, "min_gap_mib", SIGNED_MIB, &g->lower_gap) ||
        get_number_or_zero(r, low, "min_gap_from_tokens", TOKENS, &g->lower_tokens))
        return -1;
    g->lower_gap = fmax(g->lower_gap, 0);
    g->lower_floor.found = isfinite(floor0);
    g->lower_floor.p_mib = floor0; /* at t_mean = 0 */
    g->has_lower = 1;
    return 0;
}

/* prediction.gap_with_per_sample_term (optional): the gap's fit, x1 = T
 * and x2 = b, of an RSS or reserved fit over two seq_lens or more. */
static int read_gap(struct reader *r, json_t *p, struct group_fit *g)
{
    if (!json_object_get(p, "gap_with_per_sample_term"))
        return 0;
    if (read_ols(r, p, "gap_with_per_sample_term", &g->gap))
        return -1;
    if (g->gap.p != 3)
        return missing(r, "gap_with_per_sample_term", "an object with 3 coefficients");
    g->gap_model = 1;
    return 0;
}

/* prediction.between_runs (optional): RSS's spread between runs; a
 * fit.json from before it gets what a fit of no points would. */
static int read_between_runs(struct reader *r, json_t *p, struct group_fit *g)
{
    json_t *b = json_object_get(p, "between_runs");
    char source[16];
    if (!b) {
        group_run_spread(g);
        return 0;
    }
    if (get_number(r, b, "rel_sd", REL_SD, &g->run_spread) || get_int(r, b, "dof", 0, 1L << 30, &g->run_spread_dof) ||
        get_text(r, b, "source", source, sizeof source) ||
        get_int(r, b, "replicate_pairs", 0, 1L << 30, &g->run_spread_pairs) ||
        get_number(r, b, "replicate_rel_sd", REL_SD, &g->run_spread_replicates))
        return -1;
    if (!(g->run_spread >= 0))
        return missing(r, "rel_sd", "a number >= 0");
    g->run_spread_from_replicates = !strcmp(source, "replicates");
    return 0;
}

/* The interval's t quantile is its degrees of freedom's: one that is not
 * would make every interval too narrow or too wide. */
static int check_t975(struct reader *r, const struct group_fit *g)
{
    char words[96];
    double t = g->dof >= 1 ? gsl_cdf_tdist_Pinv(0.975, g->dof) : NAN;
    if (g->dof < 1 || fabs(g->t975 - t) <= 1e-9 * t)
        return 0;
    snprintf(words, sizeof words, "t(0.975) at its dof %d, %.10g", g->dof, t);
    return missing(r, "t975", words);
}

static int read_floor(struct reader *r, json_t *o, struct group_fit *g)
{
    json_t *f = json_object_get(o, "floor"), *p = json_object_get(o, "prediction");
    if (!json_is_object(f) || !json_is_object(p))
        return missing(r, "floor\" and \"prediction", "objects");
    g->floor.found = json_is_true(json_object_get(f, "found"));
    return get_number(r, f, "p_mib", SIGNED_MIB, &g->floor.p_mib) ||
           get_number_or_zero(r, f, "slope_mib_per_token", SIGNED_MIB, &g->floor.slope) ||
           get_number_or_zero(r, f, "mean_tokens", TOKENS, &g->floor.t_mean) ||
           get_number_or_zero(r, f, "sxx_tokens2", TOKEN_SQUARES, &g->floor.t_sxx) ||
           get_number_or_zero(r, f, "extra_leverage", LEVERAGE, &g->floor.extra_leverage) ||
           get_int(r, f, "n_floor", 0, 1L << 30, &g->floor.k) ||
           get_int(r, f, "n_above_knee", 0, 1L << 30, &g->n_above) ||
           get_number(r, f, "f_test_F", F_STATISTIC, &g->floor.f_stat) ||
           get_number(r, f, "f_test_p", PROBABILITY, &g->floor.f_p) || get_number(r, p, "sigma_mib", SIZE_MIB, &g->sigma) ||
           get_int(r, p, "dof", -3, 1L << 30, &g->dof) || get_number(r, p, "t975", T_QUANTILE, &g->t975) ||
           get_text(r, o, "flags", g->flags, sizeof g->flags) || read_lower(r, p, g) ||
           check_t975(r, g) || read_gap(r, p, g) || read_between_runs(r, p, g);
}

/* Where it was measured (fit/hardware.h); files from before a field leave it empty. */
static int read_hardware(struct reader *r, json_t *o, struct group_fit *g)
{
    json_t *e = json_object_get(o, "environment");
    if (!json_is_object(e))
        return 0;
#define HARDWARE_READ(field, size) \
    if (json_object_get(e, #field) && get_text(r, e, #field, g->hw.field, sizeof g->hw.field)) \
        return -1;
    HARDWARE_FIELDS(HARDWARE_READ)
#undef HARDWARE_READ
    return 0;
}

static int read_group(struct reader *r, json_t *o, struct group_fit *g)
{
    json_t *d = json_object_get(o, "decomposition");
    if (!json_is_object(o))
        return missing(r, "groups", "objects");
#define GROUP_KEY_READ(field, size, ...) \
    if (get_text(r, o, #field, g->key.field, sizeof g->key.field)) \
        return -1;
    GROUP_KEY_FIELDS(GROUP_KEY_READ)
#undef GROUP_KEY_READ
    /* A setting a file from before its field lacks held its usual value. */
#define GROUP_SETTING_READ(field, size, usual) \
    if (json_object_get(o, #field) ? get_text(r, o, #field, g->key.field, sizeof g->key.field) != 0 \
                                   : snprintf(g->key.field, sizeof g->key.field, "%s", usual) < 0) \
        return -1;
    GROUP_KEY_SETTINGS(GROUP_SETTING_READ)
#undef GROUP_SETTING_READ
    if (!json_is_object(d))
        return missing(r, "decomposition", "an object");
    if (get_int(r, o, "n", 0, 1L << 30, &g->n) || read_choice(r, o, g) || read_ols(r, o, "linear", &g->linear) ||
        read_ols(r, o, "quadratic", &g->quadratic) || get_text(r, o, "reason", g->reason, sizeof g->reason) ||
        get_number(r, o, "f_test_F", F_STATISTIC, &g->f_stat) || get_number(r, o, "f_test_p", PROBABILITY, &g->f_p) ||
        get_number(r, o, "rmse_mib", SIZE_MIB, &g->rmse) || get_number(r, o, "loo_rmse_mib", SIZE_MIB, &g->loo_rmse) ||
        get_number(r, o, "loo_max_abs_mib", SIZE_MIB, &g->loo_max_abs) ||
        get_number(r, o, "baseline_mib", SIZE_MIB, &g->baseline_mib) ||
        get_number(r, d, "weights_mib", SIZE_MIB, &g->weight_mib) || get_number(r, d, "grads_mib", SIZE_MIB, &g->grad_mib) ||
        get_number(r, d, "optimizer_mib", SIZE_MIB, &g->optimizer_mib) ||
        get_number(r, d, "overhead_mib", SIGNED_MIB, &g->overhead_mib))
        return -1;
    g->n = 0; /* the points themselves are not in the file */
    g->from_slices = json_is_true(json_object_get(o, "from_slices"));
    if (read_measured(r, o, g) || read_floor(r, o, g) || read_hardware(r, o, g))
        return -1;
    if (g->floor.found && g->floor.k < 1)
        return missing(r, "n_floor", "at least 1 where a floor was found");
    return 0;
}

static int read_groups(struct reader *r, json_t *groups, struct fit_set *set)
{
    size_t n = json_array_size(groups);
    set->groups = calloc(n ? n : 1, sizeof *set->groups);
    if (!set->groups)
        return missing(r, "groups", "small enough to hold in memory");
    for (size_t i = 0; i < n; i++) {
        r->group = (int)i;
        set->n_groups++;
        if (read_group(r, json_array_get(groups, i), &set->groups[i]) != 0)
            return -1;
    }
    return 0;
}

int fit_json_load(const char *path, struct fit_set *set, char *err, unsigned long errlen)
{
    memset(set, 0, sizeof *set);
    snprintf(set->dir, sizeof set->dir, "%s", path);
    json_error_t jerr;
    size_t len;
    char *text = input_file_read(path, "fit.json", FIT_JSON_MAX_BYTES, &len, err, errlen);
    if (!text)
        return -1;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root) {
        snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
        return -1;
    }
    struct reader r = {.path = path, .group = -1, .err = err, .errlen = errlen};
    json_t *groups = json_object_get(root, "groups"), *version = json_object_get(root, "fit_json_version");
    int rc = -1;
    if (!json_is_array(groups))
        snprintf(err, errlen, "%s: no \"groups\" array: not a peakfit fit.json", path);
    else if (!json_is_integer(version) || json_integer_value(version) != FIT_JSON_VERSION)
        snprintf(err, errlen, "%s: fit_json_version is not %d: written by another peakfit; run `peakfit fit DIR` "
                 "again to rewrite it", path, FIT_JSON_VERSION);
    else
        rc = read_groups(&r, groups, set);
    json_decref(root);
    return rc;
}
