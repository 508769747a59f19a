/* fit_json.c: fit.json written and read with jansson. Numbers that are not
 * known (NAN) are null; reals are written with 17 significant digits, so a
 * fit read back predicts exactly what the fit that wrote it did. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/fit_json.h"
#include "fit/phases.h"
#include "util/output_file.h"
#include "util/version.h"

static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *matrix_json(const struct ols *f, const double m[OLS_MAX_P][OLS_MAX_P])
{
    json_t *a = json_array();
    for (int i = 0; i < f->p; i++) {
        json_t *row = json_array();
        for (int j = 0; j < f->p; j++)
            json_array_append_new(row, number(m[i][j]));
        json_array_append_new(a, row);
    }
    return a;
}

static json_t *ols_json(const struct ols *f)
{
    json_t *o = json_object(), *c = json_array();
    for (int i = 0; i < f->p; i++)
        json_array_append_new(c, number(f->c[i]));
    json_object_set_new(o, "n", json_integer(f->n));
    json_object_set_new(o, "p", json_integer(f->p));
    json_object_set_new(o, "identifiable", json_boolean(f->identifiable));
    json_object_set_new(o, "coefficients", c);
    json_object_set_new(o, "covariance", matrix_json(f, f->cov));
    json_object_set_new(o, "xtx_inverse", matrix_json(f, f->xtx_inv));
    json_object_set_new(o, "rss", number(f->rss));
    json_object_set_new(o, "r2", number(f->r2));
    json_object_set_new(o, "t975", number(f->t975));
    return o;
}

static const char *choice_names[] = {"none", "linear", "quadratic"};

static json_t *measured_json(const struct group_fit *g)
{
    json_t *o = json_object(), *s = json_array();
    for (int i = 0; i < g->n_seq; i++)
        json_array_append_new(s, json_integer(g->seq_lens[i]));
    json_object_set_new(o, "batch_min", json_integer(g->min_batch));
    json_object_set_new(o, "batch_max", json_integer(g->max_batch));
    json_object_set_new(o, "tokens_max", number(g->max_tokens));
    json_object_set_new(o, "seq_lens", s);
    return o;
}

static json_t *decomposition_json(const struct group_fit *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "weights_mib", number(g->weight_mib));
    json_object_set_new(o, "grads_mib", number(g->grad_mib));
    json_object_set_new(o, "optimizer_mib", number(g->optimizer_mib));
    json_object_set_new(o, "overhead_mib", number(g->overhead_mib));
    return o;
}

/* Where the group's first point was measured (fit/hardware.h). */
static json_t *environment_json(const struct group_fit *g)
{
    json_t *o = json_object();
    const struct observation *p = g->n ? g->points[0] : NULL;
#define HARDWARE_MEMBER_JSON(field, size) json_object_set_new(o, #field, json_string(g->hw.field));
    HARDWARE_FIELDS(HARDWARE_MEMBER_JSON)
#undef HARDWARE_MEMBER_JSON
    json_object_set_new(o, "threads", json_integer(p ? p->threads : 0));
    json_object_set_new(o, "blas_threads", json_integer(p ? p->blas_threads : 0));
    return o;
}

/* The floor, the knee, and per measured point which bound it (floor or
 * line) and which phase's peak was highest (evidence; "" when unknown). */
static json_t *floor_json(const struct group_fit *g)
{
    json_t *o = json_object(), *pts = json_array();
    json_object_set_new(o, "found", json_boolean(g->floor.found));
    json_object_set_new(o, "p_mib", number(g->floor.p_mib));
    json_object_set_new(o, "slope_mib_per_token", number(g->floor.slope));
    json_object_set_new(o, "mean_tokens", number(g->floor.t_mean));
    json_object_set_new(o, "sxx_tokens2", number(g->floor.t_sxx));
    json_object_set_new(o, "extra_leverage", number(g->floor.extra_leverage));
    json_object_set_new(o, "n_floor", json_integer(g->floor.k));
    json_object_set_new(o, "n_above_knee", json_integer(g->n_above));
    json_object_set_new(o, "knee_tokens", number(g->n_seq ? group_knee_tokens(g, g->seq_lens[g->n_seq - 1]) : NAN));
    json_object_set_new(o, "f_test_F", number(g->floor.f_stat));
    json_object_set_new(o, "f_test_p", number(g->floor.f_p));
    for (int i = 0; i < g->n; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "batch", json_integer(g->points[i]->batch));
        json_object_set_new(p, "seq_len", json_integer(g->points[i]->seq_len));
        json_object_set_new(p, "bound", json_string(g->on_floor[i] ? "floor" : "line"));
        json_object_set_new(p, "peak_phase", json_string(phase_name(group_peak_phase(g, i))));
        json_array_append_new(pts, p);
    }
    json_object_set_new(o, "points", pts);
    return o;
}

/* RSS's spread between runs (fit/group_spread.c): r, its dof, where it
 * comes from, and the group's replicate pairs with their own estimate. */
static json_t *between_runs_json(const struct group_fit *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "rel_sd", number(g->run_spread));
    json_object_set_new(o, "dof", json_integer(g->run_spread_dof));
    json_object_set_new(o, "source", json_string(!(g->run_spread > 0) ? "none" : g->run_spread_from_replicates
                                                                              ? "replicates" : "default"));
    json_object_set_new(o, "replicate_pairs", json_integer(g->run_spread_pairs));
    json_object_set_new(o, "replicate_rel_sd", number(g->run_spread_replicates));
    return o;
}

/* What a prediction interval for a new measurement needs besides the fit. */
static json_t *prediction_json(const struct group_fit *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "sigma_mib", number(g->sigma));
    json_object_set_new(o, "dof", json_integer(g->dof));
    json_object_set_new(o, "t975", number(g->t975));
    json_object_set_new(o, "between_runs", between_runs_json(g));
    if (g->has_lower) {
        json_t *low = json_object(), *c = json_array();
        for (int i = 0; i < g->lower.p; i++)
            json_array_append_new(c, number(g->lower.c[i]));
        json_object_set_new(low, "coefficients", c);
        json_object_set_new(low, "floor_mib", g->lower_floor.found ? number(floor_at(&g->lower_floor, 0)) : json_null());
        json_object_set_new(low, "floor_slope_mib_per_token", number(g->lower_floor.slope));
        json_object_set_new(low, "min_gap_mib", number(g->lower_gap));
        json_object_set_new(low, "min_gap_from_tokens", number(g->lower_tokens));
        json_object_set_new(o, "lower_bound", low);
    }
    if (g->gap_model && g->gap.p == 3)
        json_object_set_new(o, "gap_with_per_sample_term", ols_json(&g->gap));
    return o;
}

/* The held-out points: measured, predicted with their interval, error in %. */
static json_t *holdout_json(const struct group_fit *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->n_held; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "batch", json_integer(g->held[i]->batch));
        json_object_set_new(p, "seq_len", json_integer(g->held[i]->seq_len));
        json_object_set_new(p, "measured_mib", number(g->held_y[i]));
        json_object_set_new(p, "predicted_mib", number(g->held_predicted[i]));
        json_object_set_new(p, "predicted_pi95_mib", number(g->held_ci95[i]));
        json_object_set_new(p, "error_pct", number(group_held_error_pct(g, i)));
        json_object_set_new(p, "inside_interval", json_boolean(group_held_inside(g, i)));
        json_array_append_new(a, p);
    }
    return a;
}

static json_t *group_json(const struct group_fit *g)
{
    json_t *o = json_object();
#define GROUP_KEY_JSON(field, size, ...) json_object_set_new(o, #field, json_string(g->key.field));
    GROUP_KEY_ALL(GROUP_KEY_JSON)
#undef GROUP_KEY_JSON
    json_object_set_new(o, "metric", json_string(metric_name(g->metric)));
    json_object_set_new(o, "n", json_integer(g->n));
    json_object_set_new(o, "model_choice", json_string(choice_names[g->choice]));
    json_object_set_new(o, "reason", json_string(g->reason));
    json_object_set_new(o, "from_slices", json_boolean(g->from_slices));
    json_object_set_new(o, "linear", ols_json(&g->linear));
    json_object_set_new(o, "quadratic", ols_json(&g->quadratic));
    json_object_set_new(o, "f_test_F", number(g->f_stat));
    json_object_set_new(o, "f_test_p", number(g->f_p));
    json_object_set_new(o, "rmse_mib", number(g->rmse));
    json_object_set_new(o, "loo_rmse_mib", number(g->loo_rmse));
    json_object_set_new(o, "loo_max_abs_mib", number(g->loo_max_abs));
    json_object_set_new(o, "measured", measured_json(g));
    json_object_set_new(o, "baseline_mib", number(g->baseline_mib));
    json_object_set_new(o, "decomposition", decomposition_json(g));
    json_object_set_new(o, "environment", environment_json(g));
    json_object_set_new(o, "floor", floor_json(g));
    json_object_set_new(o, "prediction", prediction_json(g));
    json_object_set_new(o, "flags", json_string(g->flags));
    json_object_set_new(o, "holdout", holdout_json(g));
    return o;
}

int fit_json_write(const struct fit_set *set)
{
    char path[4200], err[4400];
    struct output_file out;
    json_t *root = json_object(), *groups = json_array();
    json_object_set_new(root, "peakfit_version", json_string(PEAKFIT_VERSION));
    json_object_set_new(root, "fit_json_version", json_integer(FIT_JSON_VERSION));
    for (int i = 0; i < set->n_groups; i++)
        json_array_append_new(groups, group_json(&set->groups[i]));
    json_object_set_new(root, "groups", groups);
    snprintf(path, sizeof path, "%s/fit.json", set->dir);
    int rc = output_file_open(&out, path, err, sizeof err);
    if (rc == 0) {
        json_dumpf(root, out.f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
        fputc('\n', out.f);
        rc = output_file_commit(&out, err, sizeof err);
    }
    if (rc != 0)
        fprintf(stderr, "peakfit: %s\n", err);
    json_decref(root);
    return rc;
}
