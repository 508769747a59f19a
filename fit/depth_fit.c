/* depth_fit.c: the whole model's fit from its slices (fit/depth_fit.h). */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/technique.h"
#include "fit/depth_fit.h"
#include "settings/group_key.h"
#include "sweeps/job_train_options.h"
#include "fit/ols.h"
#include "fit/phases.h"
#include "models/model_spec.h"
#include "models/param_count.h"

#define MIB (1024.0 * 1024.0)
enum { DP = 4 }; /* the coefficients: 1, L, T, L*T */

/* y = c0 + c1*L + (c2 + c3*L)*T by least squares, with (X'X)^-1 for
 * leverages and sigma from the residuals (dof = n - 4). */
struct depth_ols {
    int n, dof;
    double c[DP];
    double xtx_inv[DP][DP];
    double rss, tss, sigma, t975;
};

static void design(double L, double T, double x[DP])
{
    x[0] = 1;
    x[1] = L;
    x[2] = T;
    x[3] = L * T;
}

static double depth_predict(const struct depth_ols *f, double L, double T)
{
    double x[DP], y = 0;
    design(L, T, x);
    for (int j = 0; j < DP; j++)
        y += f->c[j] * x[j];
    return y;
}

/* The normal equations with each column scaled to its largest value
 * (T*L reaches 1e6 where 1 is 1), solved by LU. -1 when the design is
 * singular (fewer than two depths or two token counts). */
static int solve_scaled(const double *L, const double *T, const double *y, int n, const double scale[DP],
                        struct depth_ols *out)
{
    gsl_matrix *a = gsl_matrix_calloc(DP, DP), *inv = gsl_matrix_alloc(DP, DP);
    gsl_vector *b = gsl_vector_calloc(DP), *c = gsl_vector_alloc(DP);
    gsl_permutation *perm = gsl_permutation_alloc(DP);
    int sign, rc = a && inv && b && c && perm ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; i++) {
        double x[DP];
        design(L[i], T[i], x);
        for (int j = 0; j < DP; j++) {
            *gsl_vector_ptr(b, (size_t)j) += x[j] / scale[j] * y[i];
            for (int k = 0; k < DP; k++)
                *gsl_matrix_ptr(a, (size_t)j, (size_t)k) += x[j] / scale[j] * x[k] / scale[k];
        }
    }
    if (rc == 0)
        gsl_linalg_LU_decomp(a, perm, &sign);
    for (int j = 0; rc == 0 && j < DP; j++)
        if (fabs(gsl_matrix_get(a, (size_t)j, (size_t)j)) < 1e-12 * n)
            rc = -1;
    if (rc == 0) {
        gsl_linalg_LU_solve(a, perm, b, c);
        gsl_linalg_LU_invert(a, perm, inv);
        for (int j = 0; j < DP; j++) {
            out->c[j] = gsl_vector_get(c, (size_t)j) / scale[j];
            for (int k = 0; k < DP; k++)
                out->xtx_inv[j][k] = gsl_matrix_get(inv, (size_t)j, (size_t)k) / (scale[j] * scale[k]);
        }
    }
    gsl_matrix_free(a);
    gsl_matrix_free(inv);
    gsl_vector_free(b);
    gsl_vector_free(c);
    gsl_permutation_free(perm);
    return rc;
}

static int depth_fit(const double *L, const double *T, const double *y, int n, struct depth_ols *out)
{
    double scale[DP] = {1, 1, 1, 1}, mean = 0;
    for (int i = 0; i < n; i++) {
        scale[1] = fmax(scale[1], L[i]);
        scale[2] = fmax(scale[2], T[i]);
        mean += y[i] / n;
    }
    scale[3] = scale[1] * scale[2];
    *out = (struct depth_ols){.n = n, .dof = n - DP};
    if (n < DP || solve_scaled(L, T, y, n, scale, out) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        double r = y[i] - depth_predict(out, L[i], T[i]);
        out->rss += r * r;
        out->tss += (y[i] - mean) * (y[i] - mean);
    }
    out->sigma = out->dof > 0 ? sqrt(out->rss / out->dof) : NAN;
    out->t975 = out->dof > 0 ? gsl_cdf_tdist_Pinv(0.975, out->dof) : NAN;
    return 0;
}

double depth_logits_grad_mib(const pf_model_config *c) { return (double)c->vocab_size * 4 / MIB; }

int depth_logits_grad_known(pf_technique t)
{
    const pf_technique_info *info = pf_technique_info_of(t);
    return info->training && !info->checkpoint && info->precision == PF_FP32;
}

/* --- the slices of one group ---------------------------------------------- */

/* How a phase's line came from forward's (refit_line): not at all, plus
 * the excess measured above the knee, or plus the logits' gradient by
 * arithmetic where too few points are above it to measure that. */
enum { OVER_FORWARD_NOT, OVER_FORWARD_MEASURED, OVER_FORWARD_BY_ARITHMETIC };

/* The points of one group of slices: each one's depth, tokens, states
 * (weights, gradients, AdamW state) and per-phase peaks above them. */
struct slices {
    struct group_key key;          /* the whole model's: layers "" */
    enum metric metric;            /* allocator-level: tensor, or allocated on a GPU */
    int n, n_phases;               /* n_phases 1: the step's peak alone (no phases measured) */
    const struct observation **o;
    double *L, *T, *states, *y[PF_PHASE_COUNT];
    char depths[32];               /* "1 2 4" */
    int n_depths;
    int over_forward[PF_PHASE_COUNT]; /* how the phase's line is forward's plus an excess (refit_line) */
};

int depth_key_is_slice(const struct group_key *key)
{
    return key->layers[0] && strspn(key->layers, "0123456789") == strlen(key->layers);
}

static double metric_of(const struct observation *o, enum metric m)
{
    return m == METRIC_RSS ? o->rss_mib : m == METRIC_TENSOR ? o->tensor_mib
         : m == METRIC_ALLOCATED ? o->gpu_allocated_mib : o->gpu_reserved_mib;
}

static double states_of(const struct observation *o)
{
    return o->weight_mib + o->grad_mib + o->optimizer_mib;
}

/* Is o a slice point of this group (its key but for layers)? */
static int in_slices(const struct slices *s, const struct observation *o)
{
    struct group_key k;
    group_key_of(o, &k);
    if (!depth_key_is_slice(&k) || o->holdout || metric_of(o, s->metric) < 0 || states_of(o) < 0)
        return 0;
    k.layers[0] = '\0';
    return group_key_compare(&k, &s->key) == 0;
}

static void note_depth(struct slices *s, int depth)
{
    for (int i = 0; i < s->n; i++)
        if ((int)s->L[i] == depth)
            return;
    size_t used = strlen(s->depths);
    snprintf(s->depths + used, sizeof s->depths - used, "%s%d", used ? " " : "", depth);
    s->n_depths++;
}

static int phases_all_known(const struct slices *s, const struct observations *obs)
{
    for (int i = 0; i < obs->n_ok; i++)
        if (in_slices(s, &obs->ok[i]) && !phases_known(metric_phases(&obs->ok[i], s->metric)))
            return 0;
    return 1;
}

static int collect(struct slices *s, const struct observations *obs)
{
    size_t n = (size_t)obs->n_ok + 1;
    s->o = malloc(n * sizeof *s->o);
    s->L = malloc(n * sizeof *s->L);
    s->T = malloc(n * sizeof *s->T);
    s->states = malloc(n * sizeof *s->states);
    s->n_phases = phases_all_known(s, obs) ? PF_PHASE_COUNT : 1;
    int rc = s->o && s->L && s->T && s->states ? 0 : -1;
    for (int p = 0; p < s->n_phases; p++)
        rc |= (s->y[p] = malloc(n * sizeof *s->y[p])) ? 0 : -1;
    for (int i = 0; rc == 0 && i < obs->n_ok; i++) {
        const struct observation *o = &obs->ok[i];
        if (!in_slices(s, o))
            continue;
        note_depth(s, atoi(o->layers));
        s->o[s->n] = o;
        s->L[s->n] = atof(o->layers);
        s->T[s->n] = o->tokens;
        s->states[s->n] = states_of(o);
        const double *ph = metric_phases(o, s->metric);
        for (int p = 0; p < s->n_phases; p++)
            s->y[p][s->n] = (s->n_phases == 1 ? metric_of(o, s->metric) : ph[p]) - s->states[s->n];
        s->n++;
    }
    return rc;
}

static void slices_free(struct slices *s)
{
    free(s->o);
    free(s->L);
    free(s->T);
    free(s->states);
    for (int p = 0; p < PF_PHASE_COUNT; p++)
        free(s->y[p]);
}

/* --- the whole model -------------------------------------------------------- */

/* The config's depth and its states (MiB) by arithmetic: 0, or -1 when
 * its config cannot be read (then the slices' own states, a line in the
 * depth, are extrapolated). */
static int whole_model(const struct slices *s, double *depth, double *w, double *g, double *opt, double *logits)
{
    static struct model_spec spec; /* 8 KiB: not on the stack */
    char err[512];
    if (model_spec_read(s->o[0]->model_source, &spec, err, sizeof err) != 0)
        return -1;
    pf_train_options options = group_key_train_options(&s->key);
    pf_model_stats st = model_footprint(&spec.config, &options);
    *depth = (double)spec.config.num_layers;
    *w = (double)st.weight_bytes / MIB;
    *g = (double)st.grad_bytes / MIB;
    *opt = (double)st.optimizer_bytes / MIB;
    *logits = depth_logits_grad_known(options.technique) ? depth_logits_grad_mib(&spec.config) : 0;
    return 0;
}

/* The line of one fit at depth L as a 2-coefficient ols in T: c0 + c1*T,
 * with the 4-coefficient design's leverage carried in its (X'X)^-1. */
static void line_at_depth(const struct depth_ols *f, double L, double add, struct ols *out)
{
    double m[2][DP] = {{1, L, 0, 0}, {0, 0, 1, L}};
    *out = (struct ols){.n = f->n, .p = 2, .identifiable = 1, .rss = f->rss, .t975 = f->t975,
                        .r2 = f->tss > 0 ? 1 - f->rss / f->tss : 1};
    out->c[0] = f->c[0] + f->c[1] * L + add;
    out->c[1] = f->c[2] + f->c[3] * L;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            double v = 0;
            for (int j = 0; j < DP; j++)
                for (int k = 0; k < DP; k++)
                    v += m[a][j] * f->xtx_inv[j][k] * m[b][k];
            out->xtx_inv[a][b] = v;
            out->cov[a][b] = f->dof > 0 ? v * f->sigma * f->sigma : 0;
        }
}

static int compare_ints(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

/* What a group fit says of its points' range: seq_lens, batches, tokens. */
static int set_range(struct group_fit *g, const struct slices *s)
{
    g->seq_lens = malloc((size_t)s->n * sizeof *g->seq_lens + 1);
    if (!g->seq_lens)
        return -1;
    g->min_batch = s->o[0]->batch;
    for (int i = 0; i < s->n; i++) {
        const struct observation *o = s->o[i];
        g->min_batch = o->batch < g->min_batch ? o->batch : g->min_batch;
        g->max_batch = o->batch > g->max_batch ? o->batch : g->max_batch;
        g->max_tokens = fmax(g->max_tokens, o->tokens);
        int seen = 0;
        for (int k = 0; k < g->n_seq; k++)
            seen |= g->seq_lens[k] == o->seq_len;
        if (!seen)
            g->seq_lens[g->n_seq++] = o->seq_len;
    }
    qsort(g->seq_lens, (size_t)g->n_seq, sizeof *g->seq_lens, compare_ints);
    return 0;
}

/* The floor from a phase's fit at depth L: its value at the mean T,
 * rising with T as that phase does there, with the leverage of its
 * extrapolation to L (the slices' design balanced in T, the value at the
 * mean T and the slope are nearly independent). */
static void floor_from(struct group_fit *g, const struct depth_ols *f, const struct slices *s, double L, double add)
{
    double mean = 0;
    for (int i = 0; i < s->n; i++)
        mean += s->T[i] / s->n;
    struct ols line;
    line_at_depth(f, L, 0, &line);
    double x[2] = {1, mean}, at_mean = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            at_mean += x[a] * line.xtx_inv[a][b] * x[b];
    g->floor = (struct floor_search){.found = 1, .k = s->n, .p_mib = depth_predict(f, L, mean) + add,
                                     .slope = f->c[2] + f->c[3] * L, .t_mean = mean,
                                     .t_sxx = line.xtx_inv[1][1] > 0 ? 1 / line.xtx_inv[1][1] : 0,
                                     .extra_leverage = fmax(0, at_mean - 1.0 / s->n), .f_stat = NAN, .f_p = NAN};
}

/* The whole model's own measured points: the fit from slices' held-out points. */
static int hold_whole_points(struct group_fit *g, const struct observations *obs, const struct group_key *whole)
{
    int n = 0;
    size_t size = (size_t)obs->n_ok + 1;
    g->held = malloc(size * sizeof *g->held);
    g->held_y = malloc(size * sizeof *g->held_y);
    g->held_predicted = malloc(size * sizeof *g->held_predicted);
    g->held_ci95 = malloc(size * sizeof *g->held_ci95);
    if (!g->held || !g->held_y || !g->held_predicted || !g->held_ci95)
        return -1;
    for (int i = 0; i < obs->n_ok; i++) {
        const struct observation *o = &obs->ok[i];
        struct group_key k;
        group_key_of(o, &k);
        if (group_key_compare(&k, whole) != 0 || metric_of(o, g->metric) < 0)
            continue;
        g->held[n] = o;
        g->held_y[n] = metric_of(o, g->metric);
        g->held_predicted[n] = group_predict(g, o->batch, o->seq_len, &g->held_ci95[n]);
        n++;
    }
    g->n_held = n;
    return 0;
}

/* Where the fits go: after the measured groups, which obs holds the points of. */
struct fit_list {
    const struct observations *obs;
    struct group_fit **groups;
    int *n;
};

/* --- the fits ----------------------------------------------------------------- */

struct whole {
    double depth, weight_mib, grad_mib, optimizer_mib, states;
    double logits_grad_mib;       /* depth_logits_grad_mib: 0 where not known (depth_logits_grad_known) */
    int by_arithmetic;
};

static void whole_of(const struct slices *s, struct whole *w)
{
    w->by_arithmetic = whole_model(s, &w->depth, &w->weight_mib, &w->grad_mib, &w->optimizer_mib,
                                   &w->logits_grad_mib) == 0;
    if (!w->by_arithmetic) { /* the slices' states, a line in the depth, at a depth nobody said: none */
        w->depth = NAN;
        return;
    }
    w->states = w->weight_mib + w->grad_mib + w->optimizer_mib;
}

static int steepest(const struct slices *s, const struct depth_ols *ph, double L);

/* The group fit of metric m from the phase fits: the steepest phase the
 * line, the highest of the others at the fewest tokens the floor, its
 * residuals the interval's. */
static void fill_fit(struct group_fit *g, const struct slices *s, const struct whole *w, const struct depth_ols *ph,
                     double baseline)
{
    double L = w->depth, min_t = s->T[0];
    for (int i = 0; i < s->n; i++)
        min_t = fmin(min_t, s->T[i]);
    int line = steepest(s, ph, L), floor = -1;
    for (int p = 0; p < s->n_phases; p++)
        if (p != line && (floor < 0 || depth_predict(&ph[p], L, min_t) > depth_predict(&ph[floor], L, min_t)))
            floor = p;
    line_at_depth(&ph[line], L, w->states, &g->linear);
    g->choice = CHOICE_LINEAR;
    g->f_stat = g->f_p = g->aic_linear = g->aic_quadratic = NAN;
    g->sigma = ph[line].sigma;
    g->t975 = ph[line].t975;
    g->dof = ph[line].dof;
    g->rmse = ph[line].n > 0 ? sqrt(ph[line].rss / ph[line].n) : NAN;
    g->loo_rmse = g->loo_max_abs = NAN;
    g->weight_mib = w->weight_mib;
    g->grad_mib = w->grad_mib;
    g->optimizer_mib = w->optimizer_mib;
    g->baseline_mib = baseline;
    g->overhead_mib = g->linear.c[0] - w->states;
    g->has_phases = s->n_phases > 1;
    if (floor >= 0)
        floor_from(g, &ph[floor], s, L, w->states);
    /* Above the knee: the line's phase over every other by more than a
     * tie (backward's own floor ties with the optimizer step's). */
    for (int i = 0; i < s->n; i++) {
        double other = -INFINITY;
        for (int p = 0; p < s->n_phases; p++)
            other = p == line ? other : fmax(other, s->y[p][i]);
        g->n_above += s->n_phases == 1 || s->y[line][i] > other + PHASES_TIE_MIB;
    }
    if (floor >= 0)
        g->floor.k = s->n - g->n_above;
    snprintf(g->reason, sizeof g->reason, "from slices of %s layers (%d points): per phase peak = F0 + F1*L + "
             "(A0 + A1*L)*T above the states, extrapolated to %.0f layers; the line the %s phase%s%s%s", s->depths,
             s->n, L, s->n_phases > 1 ? phase_name(line) : "whole step's",
             s->over_forward[line] == OVER_FORWARD_MEASURED
                 ? " (forward's plus its excess above the knee, the same at every depth)"
             : s->over_forward[line] == OVER_FORWARD_BY_ARITHMETIC
                 ? " (forward's plus the logits' gradient by arithmetic, vocabulary x 4 bytes a token: too few points "
                   "above the knee)" : "",
             floor >= 0 ? ", the floor the " : "", floor >= 0 ? phase_name(floor) : "");
}

static double mean_baseline(const struct slices *s, enum metric m)
{
    double sum = 0;
    for (int i = 0; i < s->n; i++)
        sum += group_metric_baseline(s->o[i], m);
    return s->n ? sum / s->n : 0;
}

/* The group fit from slices of the allocator level (metric m), added to
 * set. -1 when memory ran out. */
static int add_fit(struct fit_list *set, const struct slices *s, const struct whole *w, enum metric m,
                   const struct depth_ols *ph)
{
    struct group_fit g = {.key = s->key, .metric = m, .from_slices = 1};
    snprintf(g.key.layers, sizeof g.key.layers, "%.0f (slices %.24s)", fmin(w->depth, 1e5), s->depths);
    fill_fit(&g, s, w, ph, mean_baseline(s, m));
    struct group_fit *more = realloc(*set->groups, (size_t)(*set->n + 1) * sizeof *more);
    if (!more || set_range(&g, s) != 0 || hold_whole_points(&g, set->obs, &s->key) != 0) {
        *set->groups = more ? more : *set->groups;
        group_fit_free(&g);
        return -1;
    }
    *set->groups = more;
    more[(*set->n)++] = g;
    return 0;
}

/* The phase whose A is the largest at depth L: the line. */
static int steepest(const struct slices *s, const struct depth_ols *ph, double L)
{
    int line = 0;
    for (int p = 1; p < s->n_phases; p++)
        if (ph[p].c[2] + ph[p].c[3] * L > ph[line].c[2] + ph[line].c[3] * L)
            line = p;
    return line;
}

/* A phase's line over forward's: y - forward = E0 + E1*T by least
 * squares over the n points given (y, refit_line's copy, is left holding
 * the excess). -1 with fewer than two token counts. */
static int fit_excess(const struct depth_ols *forward, const double *L, const double *T, double *y, int n,
                      double e[2])
{
    for (int i = 0; i < n; i++)
        y[i] -= depth_predict(forward, L[i], T[i]);
    struct ols line;
    ols_fit(T, NULL, y, n, &line);
    if (!line.identifiable)
        return -1;
    e[0] = line.c[0];
    e[1] = line.c[1];
    return 0;
}

/* Do backward's points, fitted all together, rise slower than forward's
 * at depth L? Then they are its own floor (every gradient live at its end:
 * Mistral-7B's 1-layer slice, 0.016 MiB/token against forward's 0.64), not
 * its line, which starts from everything forward left live. */
static int on_own_floor(const struct depth_ols *ph, double L)
{
    const struct depth_ols *b = &ph[PF_PHASE_BACKWARD], *f = &ph[PF_PHASE_FORWARD];
    return b->c[2] + b->c[3] * L < f->c[2] + f->c[3] * L;
}

/* A phase has a floor of its own: late in backward every gradient is
 * live with the embedding's temporaries, as much as the optimizer step
 * holds (SmolLM2-135M's slices of 1-4 layers at b <= 4: backward's peak is
 * the optimizer's to the byte). Those points say nothing of the phase's
 * rise, so it is fitted again to the points where it is above every other
 * phase. Where those span two depths at two token counts each, across
 * depths; where they do not (auto --slices measures the rise at its
 * shallowest depth alone: those points cost the most), as forward's line
 * plus an excess E0 + E1*T the same at every depth (*over_forward set):
 * backward starts from everything forward left live, and what it adds
 * first, the loss's gradient over the logits, has no layer in it
 * (Qwen2.5-0.5B's slices of 1, 2 and 4 layers: backward's line is
 * forward's + 0.5796 MiB/token, the vocabulary's 151,936 x 4 bytes, at
 * each depth). Where backward has too few points above the knee for
 * that (none, or one token count), its other points are its own floor
 * (on_own_floor), and the technique's excess is known (depth_logits_grad_known: where the knee
 * of a slice is too far to measure, Mistral-7B's full training at 1 layer
 * past 3,700 tokens), forward's line plus the logits' gradient by
 * arithmetic. Where none of these, the fit to all points stays. -1 when
 * memory ran out. */
static int refit_line(const struct slices *s, const struct whole *w, int line, struct depth_ols *ph,
                      int *over_forward)
{
    if (s->n_phases < 2)
        return 0;
    double *L = malloc((size_t)s->n * sizeof *L), *T = malloc((size_t)s->n * sizeof *T);
    double *y = malloc((size_t)s->n * sizeof *y);
    int n = 0, rc = L && T && y ? 0 : -1;
    for (int i = 0; rc == 0 && i < s->n; i++) {
        double other = -INFINITY;
        for (int p = 0; p < s->n_phases; p++)
            other = p == line ? other : fmax(other, s->y[p][i]);
        if (s->y[line][i] > other + PHASES_TIE_MIB) {
            L[n] = s->L[i];
            T[n] = s->T[i];
            y[n++] = s->y[line][i];
        }
    }
    struct depth_ols above;
    double e[2];
    if (rc == 0 && n > DP && depth_fit(L, T, y, n, &above) == 0)
        ph[line] = above;
    else if (rc == 0 && line != PF_PHASE_FORWARD && fit_excess(&ph[PF_PHASE_FORWARD], L, T, y, n, e) == 0) {
        ph[line] = ph[PF_PHASE_FORWARD];
        ph[line].c[0] += e[0];
        ph[line].c[2] += e[1];
        *over_forward = OVER_FORWARD_MEASURED;
    } else if (rc == 0 && line == PF_PHASE_BACKWARD && w->logits_grad_mib > 0 && on_own_floor(ph, w->depth)) {
        ph[line] = ph[PF_PHASE_FORWARD];
        ph[line].c[2] += w->logits_grad_mib;
        *over_forward = OVER_FORWARD_BY_ARITHMETIC;
    }
    free(L);
    free(T);
    free(y);
    return rc;
}

/* The fits from one group of slices; -1 when memory ran out. */
static int fit_slices(struct fit_list *set, struct slices *s)
{
    struct depth_ols ph[PF_PHASE_COUNT];
    struct whole w;
    whole_of(s, &w);
    if (s->n_depths < DEPTH_FIT_MIN_DEPTHS || s->n < DEPTH_FIT_MIN_POINTS || !w.by_arithmetic)
        return 0;
    for (int p = 0; p < s->n_phases; p++)
        if (depth_fit(s->L, s->T, s->y[p], s->n, &ph[p]) != 0)
            return 0;
    /* Every phase refitted before the steepest is chosen: fitted to all
     * points, backward's rise is diluted by those on its floor, and a
     * flatter phase won (Qwen2.5-0.5B's slices at b 1-4, s 128: the
     * forward phase's 3.63 MiB/token for the whole model against the
     * 4.21 it measures). */
    int rc = 0;
    for (int p = 0; rc == 0 && p < s->n_phases; p++)
        rc = refit_line(s, &w, p, ph, &s->over_forward[p]);
    if (rc != 0)
        return rc;
    /* The allocator level alone: the heap's gap over it (RSS; on a GPU,
     * reserved) grows with the whole model's live set, which its slices do
     * not hold (GPT-2 whole at b 2-16: 367-729 MiB; its slices' 81-163:
     * bench/results/slices-proof.md). */
    return add_fit(set, s, &w, s->metric, ph);
}

static int already_fitted(const struct group_fit *groups, int upto, const struct group_key *whole, enum metric m)
{
    for (int i = 0; i < upto; i++) {
        struct group_key k = groups[i].key;
        k.layers[0] = '\0';
        if (groups[i].metric == m && depth_key_is_slice(&groups[i].key) && group_key_compare(&k, whole) == 0)
            return 1;
    }
    return 0;
}

int depth_fits_add(const struct observations *obs, struct group_fit **groups, int *n)
{
    struct fit_list set = {obs, groups, n};
    int measured = *n, rc = 0;
    for (int i = 0; rc == 0 && i < measured; i++) {
        const struct group_fit *g = &(*groups)[i];
        if ((g->metric != METRIC_TENSOR && g->metric != METRIC_ALLOCATED) || !depth_key_is_slice(&g->key))
            continue;
        struct slices s = {.key = g->key, .metric = g->metric};
        s.key.layers[0] = '\0';
        if (already_fitted(*groups, i, &s.key, g->metric))
            continue;
        rc = collect(&s, obs);
        if (rc == 0)
            rc = fit_slices(&set, &s);
        slices_free(&s);
    }
    return rc;
}
