/* auto_fit.c: the automated sweep's view of one technique's points. */
#include <math.h>
#include <string.h>
#include "autosweep/auto_fit.h"

/* Per-phase peaks can differ by an allocator rounding: a tie is a tie. */
#define FLOOR_TIE_MIB 0.5

static int selected(const struct observation *ob, const struct auto_select *sel)
{
    return !ob->holdout && ob->seq_len == sel->seq_len && !strcmp(ob->model, sel->model) &&
           !strcmp(ob->device, sel->device) && !strcmp(ob->technique, sel->technique) &&
           !strcmp(ob->attention[0] ? ob->attention : "eager", sel->attention);
}

/* On the floor: forward and backward reached no higher than the step. */
static int on_floor(const struct observation *ob)
{
    const double *ph = ob->phase_mib;
    if (ph[PF_PHASE_FORWARD] < 0 || ph[PF_PHASE_BACKWARD] < 0 || ph[PF_PHASE_OPTIMIZER] < 0)
        return 0;
    return fmax(ph[PF_PHASE_FORWARD], ph[PF_PHASE_BACKWARD]) <= ph[PF_PHASE_OPTIMIZER] + FLOOR_TIE_MIB;
}

/* Keeps pts in ascending batch; a later row of the same batch replaces. */
static void add_point(struct auto_fit *f, const struct auto_point *p)
{
    int i = 0;
    while (i < f->n && f->pts[i].batch < p->batch)
        i++;
    if (i < f->n && f->pts[i].batch == p->batch) {
        f->pts[i] = *p;
        return;
    }
    if (f->n == AUTO_MAX_POINTS)
        return;
    memmove(&f->pts[i + 1], &f->pts[i], (size_t)(f->n - i) * sizeof *p);
    f->pts[i] = *p;
    f->n++;
}

static void collect(const struct observations *o, const struct auto_select *sel, struct auto_fit *f)
{
    for (int i = 0; i < o->n_ok; i++) {
        const struct observation *ob = &o->ok[i];
        if (!selected(ob, sel))
            continue;
        double metric = sel->metric == METRIC_TENSOR ? ob->tensor_mib : ob->rss_mib;
        add_point(f, &(struct auto_point){.batch = ob->batch, .tokens = ob->tokens, .metric_mib = metric,
                                          .rss_mib = ob->rss_mib, .tensor_mib = ob->tensor_mib, .baseline_mib = ob->baseline_mib,
                                          .wall_s = ob->wall_s, .ok = 1, .on_floor = on_floor(ob)});
        f->baseline_mib = ob->baseline_mib > 0 ? ob->baseline_mib : f->baseline_mib;
    }
    for (int i = 0; i < o->n_failed; i++)
        if (selected(&o->failed[i], sel))
            add_point(f, &(struct auto_point){.batch = o->failed[i].batch, .tokens = o->failed[i].tokens,
                                              .wall_s = o->failed[i].wall_s});
}

/* The knee: the largest token count on the floor; every ok point beyond
 * it is above the knee, the line's. */
static void split_at_knee(struct auto_fit *f)
{
    for (int i = 0; i < f->n; i++) {
        const struct auto_point *p = &f->pts[i];
        f->wall_s += p->wall_s > 0 ? p->wall_s : 0;
        if (!p->ok) {
            f->min_failed_batch = f->min_failed_batch ? f->min_failed_batch : p->batch;
            continue;
        }
        if (f->n_ok++ == 0 && p->tensor_mib > 0)
            f->rss_per_tensor = p->rss_mib / p->tensor_mib;
        f->max_ok_batch = p->batch;
        if (p->on_floor) {
            f->knee_tokens = fmax(f->knee_tokens, p->tokens);
            f->floor_rss_mib = fmax(f->floor_rss_mib, p->rss_mib);
        }
    }
}

static void fit_lines(struct auto_fit *f)
{
    double x[AUTO_MAX_POINTS], y[AUTO_MAX_POINTS], rss[AUTO_MAX_POINTS];
    int n = 0;
    for (int i = 0; i < f->n; i++) {
        const struct auto_point *p = &f->pts[i];
        if (p->ok && p->tokens > f->knee_tokens) {
            x[n] = p->tokens;
            y[n] = p->metric_mib;
            rss[n++] = p->rss_mib;
        }
    }
    f->n_above = n;
    f->a = NAN;
    f->a_rel = INFINITY;
    if (n < 2)
        return;
    ols_fit(x, NULL, y, n, &f->line);
    ols_fit(x, NULL, rss, n, &f->rss);
    f->a = f->line.c[1];
    double half = ols_ci95(&f->line, 1);
    if (n > 2 && isfinite(half) && f->a > 0)
        f->a_rel = half / f->a;
}

void auto_fit_read(const struct observations *o, const struct auto_select *sel, struct auto_fit *out)
{
    memset(out, 0, sizeof *out);
    collect(o, sel, out);
    split_at_knee(out);
    fit_lines(out);
}

double auto_prediction_half_width(const struct ols *l, double x)
{
    if (l->n <= l->p || !isfinite(l->t975))
        return NAN;
    double sigma2 = l->rss / (l->n - l->p), se = ols_predict_se(l, x, 0);
    return l->t975 * sqrt(sigma2 + se * se);
}

double auto_fit_rss(const struct auto_fit *f, int b, int seq_len, double *upper)
{
    double t = (double)b * seq_len;
    if (f->n_above < 2) {
        *upper = NAN;
        return NAN;
    }
    double est = ols_predict(&f->rss, t, 0), half = auto_prediction_half_width(&f->rss, t);
    *upper = isfinite(half) ? est + half : est * 1.10;
    *upper = fmax(*upper, f->floor_rss_mib);
    return fmax(est, f->floor_rss_mib);
}
