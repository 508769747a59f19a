/* plot_charts.c: each chart's part of the gnuplot script, and the chart
 * table. Series titles come from peaks.csv, so they reach the script only
 * through gnuplot_quote (plots/gnuplot_text.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plots/gnuplot_text.h"
#include "plots/plot_charts.h"
#include "plots/plot_data.h"
#include "util/name_list.h"
/* Distinct colours (Okabe-Ito's eight, then eight far from them): a group's
 * colour is never another group's in the same chart up to 16 groups;
 * past that the point type changes too. */
static const char *const colours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
                                      "#F0E442", "#000000", "#7F3C8D", "#8B0000", "#808080", "#FF00FF",
                                      "#556B2F", "#00CED1", "#B8860B", "#4B0082"};
enum { N_COLOURS = sizeof colours / sizeof colours[0] };

/* " lc rgb '#...'" for series i: its lines and band. */
static const char *series_colour(char *out, size_t size, int i)
{
    snprintf(out, size, " lc rgb '%s'", colours[i % N_COLOURS]);
    return out;
}

/* " lc rgb '#...' pt N" for series i's points (filled circles, then other
 * shapes once the colours have all been used). */
static const char *series_style(char *out, size_t size, int i)
{
    static const int point_types[] = {7, 5, 9, 11, 13};
    snprintf(out, size, " lc rgb '%s' pt %d", colours[i % N_COLOURS], point_types[(i / N_COLOURS) % 5]);
    return out;
}

/* The series title of group i as a gnuplot string literal. */
static const char *series_title(char *out, size_t size, const struct group_fit *const *g, int n, int i)
{
    char label[700];
    plot_group_label(label, sizeof label, g, n, i, " ");
    return gnuplot_quote(label, out, size);
}

/* 'MODELS: what', a gnuplot string: every chart names the models it shows
 * (their names come from peaks.csv, so quoted for gnuplot). */
static const char *chart_title_text(const struct group_fit *const *g, int n, const char *what, char *quoted,
                                    size_t size)
{
    char text[1400], name[256];
    struct name_list l;
    name_list_start(&l, text, sizeof text);
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= strcmp(g[j]->key.model, g[i]->key.model) == 0;
        if (!seen)
            name_list_add(&l, model_display_name(g[i]->key.model, name, sizeof name));
    }
    if (!name_list_full(&l))
        snprintf(text + l.used, sizeof text - l.used, ": %s", what);
    return gnuplot_quote(text, quoted, size);
}

static void chart_title(FILE *f, const struct group_fit *const *g, int n, const char *what)
{
    char quoted[3000];
    fprintf(f, "set title %s\n", chart_title_text(g, n, what, quoted, sizeof quoted));
}

/* Points of different b and s with the same b x s share an x position:
 * the axis says so rather than merging them silently. */
static const char tokens_axis[] =
    "set xlabel \"tokens per micro-batch, b x s (points with the same b x s share a position)\"\n";
/* Legends sit outside the data, so no marker covers a point and no line
 * crosses a legend. */
static const char key_outside[] = "set key outside right top vertical Left reverse\n";

static int any_point(const struct group_fit *const *g, int n) { return n > 0 && g[0]->n > 0; }

static int any_fitted(const struct group_fit *const *g, int n)
{
    for (int i = 0; i < n; i++)
        if (group_chosen(g[i]))
            return 1;
    return 0;
}

static int any_step_time(const struct group_fit *const *g, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < g[i]->n; k++)
            if (g[i]->points[k]->step_mean_s > 0)
                return 1;
    return 0;
}

static void peak_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[1500], style[64], colour[48], held[1600];
    chart_title(f, g, n, "peak RSS above baseline vs tokens, fit and its 95% band");
    fprintf(f, "%sset ylabel \"peak above baseline (MiB)\"\n%sset style fill transparent solid 0.15 noborder\nplot ",
            tokens_axis, key_outside);
    for (int i = 0; i < n; i++) {
        series_style(style, sizeof style, i);
        series_colour(colour, sizeof colour, i);
        if (group_chosen(g[i])) /* a single batch size gives points but no line */
            fprintf(f, "%s\"fit-%d.dat\" using 1:3:4 with filledcurves%s notitle, "
                       "\"fit-%d.dat\" using 1:2 with lines%s lw 2 notitle", i ? ", \\\n     " : "",
                    i, colour, i, colour);
        fprintf(f, "%s\"points-%d.dat\" using 1:2 with points%s ps 1.3 title %s",
                i || group_chosen(g[i]) ? ", \\\n     " : "", i, style, series_title(title, sizeof title, g, n, i));
        if (g[i]->n_held > 0) {
            char label[700];
            plot_group_label(label, sizeof label, g, n, i, " ");
            strncat(label, " not fitted (held out, verify)", sizeof label - strlen(label) - 1);
            fprintf(f, ", \\\n     \"held-%d.dat\" using 1:2 with points lc rgb '%s' pt 6 ps 2 lw 2 title %s", i,
                    colours[i % N_COLOURS], gnuplot_quote(label, held, sizeof held));
        }
    }
    fprintf(f, "\n");
}

static void residual_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[1500], style[64];
    chart_title(f, g, n, "residuals of the chosen fit");
    fprintf(f, "%sset ylabel \"observed - predicted (MiB)\"\n%splot 0 with lines lc rgb \"gray\" notitle",
            tokens_axis, key_outside);
    for (int i = 0; i < n; i++)
        if (group_chosen(g[i]))
            fprintf(f, ", \\\n     \"residuals-%d.dat\" using 1:2 with points%s ps 1.3 title %s", i,
                    series_style(style, sizeof style, i), series_title(title, sizeof title, g, n, i));
    fprintf(f, "\n");
}

static void breakdown_chart(FILE *f, const struct group_fit *const *g, int n)
{
    chart_title(f, g, n, "memory at the largest measured batch (F split by the measured fixed costs)");
    fprintf(f, "set xlabel \"\"\nset ylabel \"MiB above baseline\"\nset key outside right top\n"
               "set style data histograms\nset style histogram rowstacked\n"
               "set style fill solid 0.85 border -1\nset boxwidth 0.6\nset bmargin 6\n"
               "plot \"breakdown.dat\" using 2:xtic(1) title \"weights\", \"\" using 3 title \"gradients\", "
               "\"\" using 4 title \"optimizer state\", \"\" using 5 title \"activations (b x A_sample)\", "
               "\"\" using 6 title \"other overhead\"\n"
               "unset style\nset style data points\nset key inside left top\n");
}

/* What a throughput point's step time is, from the steps its points ran
 * (step_mean_s: the mean of the steps after the first, or the one step). */
static const char *throughput_what(const struct group_fit *const *g, int n, char *out, size_t size)
{
    int lo = 0, hi = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < g[i]->n; k++) {
            int steps = g[i]->points[k]->steps;
            if (g[i]->points[k]->step_mean_s <= 0 || steps <= 0)
                continue;
            lo = lo == 0 || steps < lo ? steps : lo;
            hi = steps > hi ? steps : hi;
        }
    if (hi <= 1)
        snprintf(out, size, "throughput (each point ran one step: that step's time)");
    else if (lo == hi)
        snprintf(out, size, "throughput (mean of steps 2 to %d of each point)", hi);
    else
        snprintf(out, size, "throughput (mean of the steps after the first; one-step points: that step)");
    return out;
}

static void throughput_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[1500], style[64], what[160];
    const char *sep = "";
    chart_title(f, g, n, throughput_what(g, n, what, sizeof what));
    fprintf(f, "%sset ylabel \"tokens per second\"\n%splot ", tokens_axis, key_outside);
    for (int i = 0; i < n; i++) {
        if (!any_step_time(&g[i], 1))
            continue; /* an empty data file would stop gnuplot */
        fprintf(f, "%s\"throughput-%d.dat\" using 1:2 with points%s ps 1.3 title %s", sep, i,
                series_style(style, sizeof style, i), series_title(title, sizeof title, g, n, i));
        sep = ", \\\n     ";
    }
    fprintf(f, "\n");
}

static int any_phases(const struct group_fit *const *g, int n)
{
    for (int i = 0; i < n; i++)
        if (g[i]->has_phases)
            return 1;
    return 0;
}

/* The techniques with per-phase peaks, in the groups' order: one panel each. */
static int phase_techniques(const struct group_fit *const *g, int n, const char **out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int seen = !g[i]->has_phases;
        for (int j = 0; j < k; j++)
            seen |= strcmp(out[j], g[i]->key.technique) == 0;
        if (!seen)
            out[k++] = g[i]->key.technique;
    }
    return k;
}

enum { PANEL_W = 620, PANEL_H = 440 };

static void phases_canvas(const struct group_fit *const *g, int n, int *w, int *h)
{
    const char *techniques[n > 0 ? n : 1];
    int k = phase_techniques(g, n, techniques), cols = k > 1 ? 2 : 1;
    *w = cols * PANEL_W;
    *h = (k + cols - 1) / cols * PANEL_H + 40;
}

/* group i's label in a panel of its technique: the technique left out
 * (empty when nothing else tells the panel's groups apart). */
static void panel_label(char *out, size_t size, const struct group_fit *const *g, int n, int i)
{
    char label[700];
    plot_group_label(label, sizeof label, g, n, i, " ");
    const char *t = g[i]->key.technique;
    size_t tl = strlen(t);
    char *at = strstr(label, t);
    while (at && !((at == label || at[-1] == ' ') && (at[tl] == ' ' || at[tl] == '\0')))
        at = strstr(at + 1, t);
    if (at)
        memmove(at, at[tl] == ' ' ? at + tl + 1 : at + tl, strlen(at + tl) + (at[tl] == ' ' ? 0 : 1));
    size_t len = strlen(label);
    while (len > 0 && label[len - 1] == ' ')
        label[--len] = '\0';
    snprintf(out, size, "%s", label);
}

/* One panel per technique; in each, one colour per group and one point
 * type per phase, lines joining the points of one seq_len only
 * (phases-I.dat holds one block per seq_len). */
static void phases_chart(FILE *f, const struct group_fit *const *g, int n)
{
    static const char *const phase[] = {"forward", "backward", "optimizer step"};
    const char *techniques[n > 0 ? n : 1];
    char title[1500], label[700], text[800], quoted[3000];
    int k = phase_techniques(g, n, techniques), cols = k > 1 ? 2 : 1;
    fprintf(f, "set multiplot layout %d,%d title %s\n", (k + cols - 1) / cols, cols,
            chart_title_text(g, n, "peak of each phase of a step (live tensors above baseline); lines join one "
                                   "seq_len; points with the same b x s share a position", quoted, sizeof quoted));
    for (int t = 0; t < k; t++) {
        fprintf(f, "set title %s\nset xlabel \"tokens per micro-batch, b x s\"\nset ylabel \"phase peak (MiB)\"\n"
                   "set key outside bottom center horizontal maxrows 2 Left reverse\nset grid\nplot ",
                gnuplot_quote(techniques[t], title, sizeof title));
        const char *sep = "";
        int shown = 0;
        for (int i = 0; i < n; i++) {
            if (!g[i]->has_phases || strcmp(g[i]->key.technique, techniques[t]) != 0)
                continue; /* an empty data file would stop gnuplot */
            panel_label(label, sizeof label, g, n, i);
            for (int p = 0; p < 3; p++) {
                snprintf(text, sizeof text, "%s%s%s", label, label[0] ? ": " : "", phase[p]);
                fprintf(f, "%s\"phases-%d.dat\" using 1:%d with linespoints lc rgb '%s' pt %d ps 1.3 title %s", sep,
                        i, p + 2, colours[shown % N_COLOURS], 5 + 2 * p, gnuplot_quote(text, title, sizeof title));
                sep = ", \\\n     ";
            }
            shown++;
        }
        fprintf(f, "\n");
    }
    fprintf(f, "unset multiplot\n");
}

/* plot_charts.h */
const struct plot_chart plot_charts[] = {
    {"peak_vs_tokens", any_point, "no successful points", peak_chart, NULL},
    {"residuals", any_fitted, "no group could be fitted (each needs two distinct token counts)", residual_chart,
     NULL},
    {"breakdown", any_fitted, "no group could be fitted (each needs two distinct token counts)", breakdown_chart,
     NULL},
    {"throughput", any_step_time, "no step times were recorded", throughput_chart, NULL},
    {"peak_by_phase", any_phases, "no group has per-phase peaks (training techniques, measured by this version)",
     phases_chart, phases_canvas},
};
const int plot_chart_count = sizeof plot_charts / sizeof plot_charts[0];

const char *plot_chart_name(int chart) { return plot_charts[chart].name; }

const char *plot_chart_empty(const struct fit_set *set, int chart)
{
    const struct group_fit **g;
    int n = plot_groups(set, &g);
    int has = n > 0 && plot_charts[chart].has_series(g, n);
    free(g);
    return has ? NULL : plot_charts[chart].empty_reason;
}
