/* auto_fit.c: the automated sweep's view of one technique's points. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "autosweep/auto_fit.h"
#include "fit/phases.h"

static int selected(const struct observation *ob, const struct auto_select *sel)
{
    struct group_key key;
    if (ob->holdout || ob->seq_len != sel->seq_len)
        return 0;
    group_key_of(ob, &key);
    for (int a = 0; a < GROUP_AXIS_COUNT; a++)
        if (!group_axis_matches(&key, &sel->want, a))
            return 0;
    return 1;
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
        const double *ph = metric_phases(ob, sel->metric);
        add_point(f, &(struct auto_point){.batch = ob->batch, .tokens = ob->tokens, .metric_mib = metric,
                                          .forward_mib = phases_known(ph) ? ph[PF_PHASE_FORWARD] : -1,
                                          .rss_mib = ob->rss_mib, .tensor_mib = ob->tensor_mib, .baseline_mib = ob->baseline_mib,
                                          .wall_s = ob->wall_s, .ok = 1});
        f->baseline_mib = ob->baseline_mib > 0 ? ob->baseline_mib : f->baseline_mib;
    }
    for (int i = 0; i < o->n_failed; i++)
        if (selected(&o->failed[i], sel))
            add_point(f, &(struct auto_point){.batch = o->failed[i].batch, .tokens = o->failed[i].tokens,
                                              .wall_s = o->failed[i].wall_s});
}

/* The selected ok points alone (one per batch, as in pts), so that
 * group_fit sees this technique at this seq_len and nothing else. */
static int selection(const struct observations *o, const struct auto_select *sel, struct observations *out)
{
    memset(out, 0, sizeof *out);
    out->ok = malloc(((size_t)o->n_ok + 1) * sizeof *out->ok);
    if (!out->ok)
        return -1;
    for (int i = 0; i < o->n_ok; i++) {
        if (!selected(&o->ok[i], sel))
            continue;
        int j = 0;
        while (j < out->n_ok && out->ok[j].batch != o->ok[i].batch)
            j++;
        out->ok[j] = o->ok[i]; /* a later row of the same batch replaces */
        out->n_ok += j == out->n_ok;
    }
    return 0;
}

/* The fit's summary (coefficients, floor, spread) without its per-point
 * arrays, which point into the selection: group_predict needs no more. */
static void keep_summary(struct group_fit *dst, struct group_fit *src)
{
    *dst = *src;
    dst->points = NULL, dst->y = NULL, dst->seq_lens = NULL, dst->predicted = NULL, dst->loo_error = NULL;
    dst->on_floor = NULL, dst->held = NULL, dst->held_y = NULL, dst->held_predicted = NULL, dst->held_ci95 = NULL;
    dst->n = dst->n_held = dst->n_seq = 0;
    group_fit_free(src);
}

/* The floor and the lines by fit/group_fit.c, as `peakfit fit` would fit
 * these points: the allocator-level fit first, whose floor points RSS's
 * fit takes (where they fit it better than the line alone). */
static void fit_groups(const struct observations *sub, const struct auto_select *sel, struct auto_fit *f)
{
    struct group_key key;
    struct group_fit tensor, rss;
    memset(&tensor, 0, sizeof tensor), memset(&rss, 0, sizeof rss);
    group_key_of(&sub->ok[0], &key);
    if (group_fit_run(sub, &key, METRIC_TENSOR, &tensor) != 0 ||
        group_fit_run_hinted(sub, &key, METRIC_RSS, &tensor, &rss) != 0) {
        group_fit_free(&tensor), group_fit_free(&rss);
        return;
    }
    const struct group_fit *m = sel->metric == METRIC_TENSOR ? &tensor : &rss;
    for (int i = 0; i < m->n; i++)
        for (int j = 0; j < f->n; j++)
            if (f->pts[j].ok && f->pts[j].batch == m->points[i]->batch)
                f->pts[j].on_floor = m->on_floor[i];
    f->n_above = m->n_above;
    f->has_fit = group_chosen(m) && group_chosen(&rss);
    if (sel->metric == METRIC_TENSOR) {
        keep_summary(&f->metric_fit, &tensor);
        keep_summary(&f->rss_fit, &rss);
    } else {
        keep_summary(&f->rss_fit, &rss);
        f->metric_fit = f->rss_fit;
        group_fit_free(&tensor);
    }
}

/* The knee: the largest token count on the floor. */
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

/* A's 95% half-width over A; INFINITY with 2 points or fewer. */
static double relative_half(const struct ols *line, int n_above)
{
    double half = ols_ci95(line, 1);
    return n_above > 2 && isfinite(half) && line->c[1] > 0 ? half / line->c[1] : INFINITY;
}

/* A and its interval from the chosen line (the line alone with fewer
 * than two points above the knee: nothing to say). */
static void slope(struct auto_fit *f)
{
    f->a = f->rss_a = NAN;
    f->a_rel = f->rss_a_rel = INFINITY;
    if (!f->has_fit || f->n_above < 2)
        return;
    f->line = *group_chosen(&f->metric_fit);
    f->rss = *group_chosen(&f->rss_fit);
    f->a = f->line.c[1];
    f->a_rel = relative_half(&f->line, f->n_above);
    f->rss_a = f->rss.c[1];
    f->rss_a_rel = relative_half(&f->rss, f->rss_fit.n_above);
}

void auto_fit_read(const struct observations *o, const struct auto_select *sel, struct auto_fit *out)
{
    struct observations sub;
    memset(out, 0, sizeof *out);
    collect(o, sel, out);
    if (selection(o, sel, &sub) == 0 && sub.n_ok > 0)
        fit_groups(&sub, sel, out);
    free(sub.ok);
    split_at_knee(out);
    slope(out);
}

int auto_fit_measured(const struct auto_fit *f, int b)
{
    for (int i = 0; i < f->n; i++)
        if (f->pts[i].batch == b)
            return 1;
    return 0;
}

double auto_fit_rss(const struct auto_fit *f, int b, int seq_len, double *upper)
{
    double half;
    if (f->n_above < 2) {
        *upper = NAN;
        return NAN;
    }
    double est = group_predict(&f->rss_fit, b, seq_len, &half);
    *upper = isfinite(half) ? est + half : est * 1.10;
    *upper = fmax(*upper, f->floor_rss_mib);
    return fmax(est, f->floor_rss_mib);
}
