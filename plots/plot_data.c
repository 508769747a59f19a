/* plot_data.c: whitespace-separated columns, one file per series. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plots/gnuplot_text.h"
#include "plots/plot_data.h"

int plot_groups(const struct fit_set *set, const struct group_fit ***out)
{
    int n = 0;
    *out = malloc((size_t)(set->n_groups ? set->n_groups : 1) * sizeof **out);
    if (!*out)
        return -1;
    /* A fit from slices has no points of its own to chart; its slices' are charted. */
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].metric == METRIC_RSS && !set->groups[i].from_slices)
            (*out)[n++] = &set->groups[i];
    return n;
}

int plot_file_open(struct output_file *out, const char *dir, const char *name)
{
    char path[4400], err[4600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (output_file_open(out, path, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "peakfit: %s\n", err);
    return -1;
}

int plot_file_commit(struct output_file *out)
{
    char err[4600];
    if (output_file_commit(out, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "peakfit: %s\n", err);
    return -1;
}

void plot_group_label(char *out, size_t size, const struct group_fit *const *groups, int n, int i,
                      const char *separator)
{
    struct group_key shown = groups[i]->key;
    char name[sizeof shown.model];
    snprintf(shown.model, sizeof shown.model, "%s", model_display_name(groups[i]->key.model, name, sizeof name));
    size_t used = 0;
    out[0] = '\0';
    /* technique always; the other key fields where the groups differ */
#define LABEL_FIELD(field, size_)                                                                    \
    {                                                                                                \
        int shows = strcmp(#field, "technique") == 0;                                                \
        for (int j = 0; j < n; j++)                                                                  \
            shows |= strcmp(groups[j]->key.field, groups[0]->key.field) != 0;                        \
        if (shows && used < size)                                                                    \
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? separator : "", shown.field); \
    }
    GROUP_KEY_FIELDS(LABEL_FIELD)
#undef LABEL_FIELD
    /* a setting where groups of this technique differ (two LoRA ranks, the worker and a command): its
     * name and value, where it has one (full training has no LoRA rank, and inference's warm 0 beside
     * training's warm 1 is the technique's difference, not another key's) */
#define LABEL_SETTING(field, size_, usual)                                                                 \
    {                                                                                                      \
        int shows = 0;                                                                                     \
        const char *value = shown.field[0] ? shown.field : usual;                                          \
        for (int j = 0; j < n; j++)                                                                        \
            shows |= !strcmp(groups[j]->key.technique, shown.technique) &&                                 \
                     strcmp(groups[j]->key.field, shown.field) != 0;                                       \
        if (shows && value[0] && used < size)                                                              \
            used += (size_t)snprintf(out + used, size - used, "%s%s %s", used ? separator : "", #field,    \
                                     value);                                                               \
    }
    GROUP_KEY_SETTINGS(LABEL_SETTING)
#undef LABEL_SETTING
}

static void write_points(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens peak_above_baseline_mib batch seq_len\n");
    for (int i = 0; i < g->n; i++)
        fprintf(f, "%g %g %d %d\n", g->points[i]->tokens, g->y[i], g->points[i]->batch, g->points[i]->seq_len);
}

/* Held-out points (the sweep's holdout key, and verify's runs): measured,
 * not fitted, shown beside the line they test. */
static void write_held(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens peak_above_baseline_mib batch seq_len predicted_mib\n");
    for (int i = 0; i < g->n_held; i++)
        fprintf(f, "%g %g %d %d %g\n", g->held[i]->tokens, g->held_y[i], g->held[i]->batch, g->held[i]->seq_len,
                g->held_predicted[i]);
}

/* The fitted curve with its 95% band, one block per seq_len (a straight
 * line is the same for every seq_len, so it gets one block). */
static void write_fit(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens predicted_mib ci_low ci_high seq_len\n");
    const struct ols *chosen = group_chosen(g);
    if (!chosen)
        return;
    double max_tokens = 0;
    for (int i = 0; i < g->n; i++)
        max_tokens = fmax(max_tokens, g->points[i]->tokens);
    int blocks = chosen->p == 3 ? g->n_seq : 1;
    for (int k = 0; k < blocks; k++) {
        int s = g->seq_lens[chosen->p == 3 ? k : g->n_seq - 1];
        double b_max = max_tokens / s;
        for (int step = 0; step <= 40; step++) {
            double b = b_max * step / 40, ci;
            double y = group_predict(g, b, s, &ci);
            fprintf(f, "%g %g %g %g %d\n", b * s, y, y - ci, y + ci, s);
        }
        fprintf(f, "\n\n");
    }
}

static void write_residuals(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens residual_mib loo_error_mib\n");
    for (int i = 0; group_chosen(g) && i < g->n; i++)
        fprintf(f, "%g %g %g\n", g->points[i]->tokens, g->y[i] - g->predicted[i],
                isfinite(g->loo_error[i]) ? g->loo_error[i] : NAN);
}

static void write_throughput(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens tokens_per_s\n");
    for (int i = 0; i < g->n; i++)
        if (g->points[i]->step_mean_s > 0)
            fprintf(f, "%g %g\n", g->points[i]->tokens, g->points[i]->tokens / g->points[i]->step_mean_s);
}

/* At the largest measured batch and seq_len: weights, grads, optimizer,
 * activations and the rest of F; negative rest is drawn as 0. */
static void write_breakdown(FILE *f, const struct group_fit *const *groups, int n)
{
    char label[600], safe[600];
    fprintf(f, "# label weights grads optimizer activations overhead\n");
    for (int i = 0; i < n; i++) {
        const struct group_fit *g = groups[i];
        if (!group_chosen(g))
            continue;
        int s = g->seq_lens[g->n_seq - 1], b = 0;
        for (int k = 0; k < g->n; k++) /* the largest batch measured at that seq_len */
            if (g->points[k]->seq_len == s && g->points[k]->batch > b)
                b = g->points[k]->batch;
        plot_group_label(label, sizeof label, groups, n, i, "\\n"); /* gnuplot's line break */
        fprintf(f, "\"%s\\nb%d s%d\" %g %g %g %g %g\n", gnuplot_data_label(label, safe, sizeof safe), b, s,
                g->weight_mib, g->grad_mib, g->optimizer_mib, b * group_per_sample(g, s), fmax(g->overhead_mib, 0));
    }
}

/* Each phase's allocator-level peak above baseline, by tokens (empty
 * without per-phase peaks): one block per seq_len (a blank
 * line between), in tokens order within it, so that a chart's lines join
 * the points of one seq_len, never a batch of one to a batch of another. */
static void write_phases(FILE *f, const struct group_fit *g)
{
    fprintf(f, "# tokens forward_mib backward_mib optimizer_mib batch seq_len\n");
    for (int s = 0; g->has_phases && s < g->n_seq; s++) {
        double last = -1;
        for (;;) { /* the next point of this seq_len by tokens: groups hold tens of points */
            const struct observation *next = NULL;
            for (int i = 0; i < g->n; i++) {
                const struct observation *p = g->points[i];
                if (p->seq_len == g->seq_lens[s] && p->tokens > last && (!next || p->tokens < next->tokens))
                    next = p;
            }
            if (!next)
                break;
            for (int i = 0; i < g->n; i++) { /* repeats: every row at those tokens */
                const struct observation *p = g->points[i];
                if (p->seq_len == g->seq_lens[s] && p->tokens == next->tokens)
                    fprintf(f, "%g %g %g %g %d %d\n", p->tokens, p->phase_mib[PF_PHASE_FORWARD],
                            p->phase_mib[PF_PHASE_BACKWARD], p->phase_mib[PF_PHASE_OPTIMIZER], p->batch, p->seq_len);
            }
            last = next->tokens;
        }
        fprintf(f, "\n");
    }
}

int plot_phase_single(const struct group_fit *const *groups, int n, int i)
{
    double tokens = -1;
    for (int j = 0; j < n; j++) {
        if (!groups[j]->has_phases || strcmp(groups[j]->key.technique, groups[i]->key.technique) != 0)
            continue;
        for (int k = 0; k < groups[j]->n; k++) {
            if (tokens >= 0 && groups[j]->points[k]->tokens != tokens)
                return 0;
            tokens = groups[j]->points[k]->tokens;
        }
    }
    return 1;
}

/* One row per group of plot_phase_single: its label with its point, and
 * its first point's phase peaks. */
static void write_phase_bars(FILE *f, const struct group_fit *const *groups, int n)
{
    char label[600], safe[600];
    fprintf(f, "# label forward_mib backward_mib optimizer_mib\n");
    for (int i = 0; i < n; i++) {
        const struct group_fit *g = groups[i];
        if (!g->has_phases || !plot_phase_single(groups, n, i) || g->n == 0)
            continue;
        const struct observation *p = g->points[0];
        plot_group_label(label, sizeof label, groups, n, i, "\\n");
        fprintf(f, "\"%s\\nb%d s%d\" %g %g %g\n", gnuplot_data_label(label, safe, sizeof safe), p->batch,
                p->seq_len, p->phase_mib[PF_PHASE_FORWARD], p->phase_mib[PF_PHASE_BACKWARD],
                p->phase_mib[PF_PHASE_OPTIMIZER]);
    }
}

static int write_whole(const char *dir, const char *name,
                       void (*writer)(FILE *, const struct group_fit *const *, int),
                       const struct group_fit *const *groups, int n)
{
    struct output_file out;
    if (plot_file_open(&out, dir, name) != 0)
        return -1;
    writer(out.f, groups, n);
    return plot_file_commit(&out);
}

static int write_series(const char *dir, const char *name, int index, void (*writer)(FILE *, const struct group_fit *),
                        const struct group_fit *g)
{
    char file[64];
    struct output_file out;
    snprintf(file, sizeof file, "%s-%d.dat", name, index);
    if (plot_file_open(&out, dir, file) != 0)
        return -1;
    writer(out.f, g);
    return plot_file_commit(&out);
}

int plot_data_write(const char *dir, const struct group_fit *const *groups, int n)
{
    static const struct {
        const char *name;
        void (*writer)(FILE *, const struct group_fit *);
    } series[] = {{"points", write_points}, {"fit", write_fit}, {"residuals", write_residuals},
                  {"throughput", write_throughput}, {"phases", write_phases},
                  {"held", write_held}};
    for (int i = 0; i < n; i++)
        for (size_t w = 0; w < sizeof series / sizeof series[0]; w++)
            if (write_series(dir, series[w].name, i, series[w].writer, groups[i]) != 0)
                return -1;
    return write_whole(dir, "breakdown.dat", write_breakdown, groups, n) ||
           write_whole(dir, "phase-bars.dat", write_phase_bars, groups, n);
}
