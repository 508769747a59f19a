/* fit_json_read.c: fit.json back into a fit_set, for calc. Every field a
 * prediction needs is checked; a missing or mistyped one names the file,
 * the group and the field. */
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

/* A number, or null for one that is not known (NAN). */
static int get_number(struct reader *r, json_t *o, const char *field, double *out)
{
    json_t *v = json_object_get(o, field);
    if (json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v))
        return missing(r, field, "a number or null");
    *out = json_number_value(v);
    return 0;
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

static int read_ols(struct reader *r, json_t *o, const char *field, struct ols *f)
{
    json_t *v = json_object_get(o, field);
    if (!json_is_object(v))
        return missing(r, field, "an object");
    if (get_int(r, v, "n", 0, 1L << 30, &f->n) || get_int(r, v, "p", 2, OLS_MAX_P, &f->p) ||
        get_number(r, v, "rss", &f->rss) || get_number(r, v, "r2", &f->r2) || get_number(r, v, "t975", &f->t975))
        return -1;
    f->identifiable = json_is_true(json_object_get(v, "identifiable"));
    json_t *c = json_object_get(v, "coefficients"), *cov = json_object_get(v, "covariance");
    if (json_array_size(c) != (size_t)f->p || json_array_size(cov) != (size_t)f->p)
        return missing(r, field, "an object with p coefficients and a p x p covariance");
    for (int i = 0; i < f->p; i++) {
        json_t *row = json_array_get(cov, (size_t)i);
        if (json_array_size(row) != (size_t)f->p)
            return missing(r, "covariance", "p rows of p numbers");
        f->c[i] = json_is_number(json_array_get(c, (size_t)i)) ? json_number_value(json_array_get(c, (size_t)i)) : NAN;
        for (int j = 0; j < f->p; j++)
            f->cov[i][j] = json_is_number(json_array_get(row, (size_t)j)) ? json_number_value(json_array_get(row, (size_t)j)) : NAN;
    }
    return 0;
}

static int read_choice(struct reader *r, json_t *o, struct group_fit *g)
{
    char metric[16], choice[16];
    if (get_text(r, o, "metric", metric, sizeof metric) || get_text(r, o, "model_choice", choice, sizeof choice))
        return -1;
    g->metric = strcmp(metric, "tensor") == 0 ? METRIC_TENSOR : METRIC_RSS;
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
    if (get_int(r, m, "batch_min", 0, 1L << 30, &g->min_batch) || get_int(r, m, "batch_max", 0, 1L << 30, &g->max_batch))
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

static int read_hinge(struct reader *r, json_t *o, struct group_fit *g)
{
    json_t *h = json_object_get(o, "hinge");
    if (!json_is_object(h))
        return missing(r, "hinge", "an object");
    g->hinge = json_is_true(json_object_get(h, "used"));
    return get_number(r, h, "p_step_mib", &g->p_step) || get_number(r, h, "p_step_ci95_mib", &g->p_step_ci95) ||
           get_text(r, o, "flags", g->flags, sizeof g->flags);
}

static int read_group(struct reader *r, json_t *o, struct group_fit *g)
{
    json_t *d = json_object_get(o, "decomposition");
    if (!json_is_object(o))
        return missing(r, "groups", "objects");
#define GROUP_KEY_READ(field, size) \
    if (get_text(r, o, #field, g->key.field, sizeof g->key.field)) \
        return -1;
    GROUP_KEY_FIELDS(GROUP_KEY_READ)
#undef GROUP_KEY_READ
    if (!json_is_object(d))
        return missing(r, "decomposition", "an object");
    if (get_int(r, o, "n", 0, 1L << 30, &g->n) || read_choice(r, o, g) || read_ols(r, o, "linear", &g->linear) ||
        read_ols(r, o, "quadratic", &g->quadratic) || get_text(r, o, "reason", g->reason, sizeof g->reason) ||
        get_number(r, o, "f_test_F", &g->f_stat) || get_number(r, o, "f_test_p", &g->f_p) ||
        get_number(r, o, "rmse_mib", &g->rmse) || get_number(r, o, "loo_rmse_mib", &g->loo_rmse) ||
        get_number(r, o, "loo_max_abs_mib", &g->loo_max_abs) || get_number(r, o, "baseline_mib", &g->baseline_mib) ||
        get_number(r, d, "weights_mib", &g->weight_mib) || get_number(r, d, "grads_mib", &g->grad_mib) ||
        get_number(r, d, "optimizer_mib", &g->optimizer_mib) || get_number(r, d, "overhead_mib", &g->overhead_mib))
        return -1;
    g->n = 0; /* the points themselves are not in the file */
    return read_measured(r, o, g) || read_hinge(r, o, g) ? -1 : 0;
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
    json_t *groups = json_object_get(root, "groups");
    int rc = json_is_array(groups) ? read_groups(&r, groups, set)
                                   : (snprintf(err, errlen, "%s: no \"groups\" array: not a peakfit fit.json", path), -1);
    json_decref(root);
    return rc;
}
