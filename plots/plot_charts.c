/* plot_charts.c: each chart's part of the gnuplot script, and the chart
 * table. Series titles come from peaks.csv, so they reach the script only
 * through gnuplot_quote (plots/gnuplot_text.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plots/gnuplot_text.h"
#include "plots/plot_charts.h"
#include "plots/plot_data.h"
#include "core/technique.h"
#include "util/name_list.h"
/* One colour per technique, the same in every chart and every report
 * (Okabe-Ito's palette without its yellow, which hardly shows on white,
 * and a purple), indexed by the technique's row in core/technique.h; the
 * groups of one technique (sdpa and eager, two LoRA ranks) differ by
 * point type and dash instead. */
static const char *const technique_colours[] = {"#808080", "#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                "#56B4E9", "#D55E00", "#7F3C8D", "#000000"};
enum { N_COLOURS = sizeof technique_colours / sizeof technique_colours[0] };
/* Filled point types for the groups of a technique, and the open point
 * of the same shape for their held-out points. */
static const int filled_points[] = {7, 5, 9, 11, 13}, open_points[] = {6, 4, 8, 10, 12};
enum { N_SHAPES = sizeof filled_points / sizeof filled_points[0] };

static const char *technique_colour(const char *technique)
{
    int t = technique_from_name(technique);
    return technique_colours[t >= 0 ? t % N_COLOURS : N_COLOURS - 1];
}

/* Group i's place among the groups of its technique (0 for the first). */
static int variant(const struct group_fit *const *g, int i)
{
    int k = 0;
    for (int j = 0; j < i; j++)
        k += strcmp(g[j]->key.technique, g[i]->key.technique) == 0;
    return k;
}

/* " lc rgb '#...' dt N" for group i's lines and band. */
static const char *series_colour(char *out, size_t size, const struct group_fit *const *g, int i)
{
    snprintf(out, size, " lc rgb '%s' dt %d", technique_colour(g[i]->key.technique), variant(g, i) % 5 + 1);
    return out;
}

/* " lc rgb '#...' pt N" for group i's points; open with held. */
static const char *series_style(char *out, size_t size, const struct group_fit *const *g, int i, int held)
{
    int v = variant(g, i) % N_SHAPES;
    snprintf(out, size, " lc rgb '%s' pt %d", technique_colour(g[i]->key.technique),
             held ? open_points[v] : filled_points[v]);
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
/* Legends sit below the chart, outside the data, so no marker covers a
 * point, no line crosses a legend, and the plot keeps the whole width
 * (legend_canvas makes room for their rows). */
enum { KEY_COLUMNS = 3, KEY_ROW_H = 18, CHART_W = 1100, CHART_H = 560 };
static const char key_outside[] = "set key below horizontal Left reverse maxcols 3 width 2\n";

static int any_point(const struct group_fit *const *g, int n)
{
    for (int i = 0; i < n; i++)
        if (g[i]->n > 0)
            return 1;
    return 0;
}

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
        series_style(style, sizeof style, g, i, 0);
        series_colour(colour, sizeof colour, g, i);
        if (group_chosen(g[i])) /* a single batch size gives points but no line */
            fprintf(f, "%s\"fit-%d.dat\" using 1:3:4 with filledcurves%s notitle, "
                       "\"fit-%d.dat\" using 1:2 with lines%s lw 2 notitle", i ? ", \\\n     " : "",
                    i, colour, i, colour);
        fprintf(f, "%s\"points-%d.dat\" using 1:2 with points%s ps 1.3 title %s",
                i || group_chosen(g[i]) ? ", \\\n     " : "", i, style, series_title(title, sizeof title, g, n, i));
        if (g[i]->n_held > 0) {
            char label[700];
            plot_group_label(label, sizeof label, g, n, i, " ");
            strncat(label, " held out (not fitted)", sizeof label - strlen(label) - 1);
            fprintf(f, ", \\\n     \"held-%d.dat\" using 1:2 with points%s ps 2 lw 2 title %s", i,
                    series_style(style, sizeof style, g, i, 1), gnuplot_quote(label, held, sizeof held));
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
                    series_style(style, sizeof style, g, i, 0), series_title(title, sizeof title, g, n, i));
    fprintf(f, "\n");
}

static void breakdown_chart(FILE *f, const struct group_fit *const *g, int n)
{
    chart_title(f, g, n, "memory at the largest measured batch (F split by the measured fixed costs)");
    /* greys, dark at the bottom: the parts of a bar, not techniques, whose colours they would take */
    fprintf(f, "set xlabel \"\"\nset ylabel \"MiB above baseline\"\nset key top right horizontal outside Left reverse\n"
               "set style data histograms\nset style histogram rowstacked\n"
               "set style fill solid 0.9 border -1\nset boxwidth 0.6\nset bmargin 6\nset xtics scale 0\n"
               "plot \"breakdown.dat\" using 2:xtic(1) lc rgb '#303030' title \"weights\", \"\" using 3 lc rgb '#606060' "
               "title \"gradients\", \"\" using 4 lc rgb '#909090' title \"optimizer state\", \"\" using 5 lc rgb "
               "'#C0C0C0' title \"activations (b x A_sample)\", \"\" using 6 lc rgb '#F0F0F0' title \"other overhead\"\n"
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

/* The throughput axis: six ticks from 0 at a round step (1, 2, 2.5 or 5
 * times a power of ten) that reaches the fastest point. gnuplot's own
 * ticks follow the timings, the machine's moment: two runs of one sweep
 * would draw charts of different structure (bench/check's "structure"). */
static void throughput_axis(FILE *f, const struct group_fit *const *g, int n)
{
    static const double round_steps[] = {1, 2, 2.5, 5, 10};
    double fastest = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < g[i]->n; k++) {
            const struct observation *o = g[i]->points[k];
            if (o->step_mean_s > 0 && o->tokens / o->step_mean_s > fastest)
                fastest = o->tokens / o->step_mean_s;
        }
    if (!(fastest > 0) || !isfinite(fastest))
        return;
    double wanted = fastest / 5, power = pow(10, floor(log10(wanted))), step = 10 * power;
    for (size_t r = 0; r < sizeof round_steps / sizeof round_steps[0]; r++)
        if (round_steps[r] * power >= wanted) {
            step = round_steps[r] * power;
            break;
        }
    fprintf(f, "set yrange [0:%.6g]\nset ytics 0, %.6g, %.6g\n", 5 * step, step, 5 * step);
}

static void throughput_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[1500], style[64], what[160];
    const char *sep = "";
    chart_title(f, g, n, throughput_what(g, n, what, sizeof what));
    throughput_axis(f, g, n);
    fprintf(f, "%sset ylabel \"tokens per second\"\n%splot ", tokens_axis, key_outside);
    for (int i = 0; i < n; i++) {
        if (!any_step_time(&g[i], 1))
            continue; /* an empty data file would stop gnuplot */
        fprintf(f, "%s\"throughput-%d.dat\" using 1:2 with points%s ps 1.3 title %s", sep, i,
                series_style(style, sizeof style, g, i, 0), series_title(title, sizeof title, g, n, i));
        sep = ", \\\n     ";
    }
    fprintf(f, "\nset autoscale y\nset ytics autofreq\n"); /* the charts after it choose their own */
}

static int any_phases(const struct group_fit *const *g, int n)
{
    for (int i = 0; i < n; i++)
        if (g[i]->has_phases)
            return 1;
    return 0;
}

/* The techniques whose per-phase peaks span two token counts or more, in
 * the groups' order: one line panel each. The others (one point each)
 * share one bar panel: a line panel of one point has no axis to speak of. */
static int phase_techniques(const struct group_fit *const *g, int n, const char **out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int seen = !g[i]->has_phases || plot_phase_single(g, n, i);
        for (int j = 0; j < k; j++)
            seen |= strcmp(out[j], g[i]->key.technique) == 0;
        if (!seen)
            out[k++] = g[i]->key.technique;
    }
    return k;
}

static int any_phase_single(const struct group_fit *const *g, int n)
{
    for (int i = 0; i < n; i++)
        if (g[i]->has_phases && plot_phase_single(g, n, i))
            return 1;
    return 0;
}

enum { PANEL_W = 620, PANEL_H = 440 };

/* Two columns of panels, but one where there is a bar panel: its groups'
 * names need the whole width. */
static int phase_columns(const struct group_fit *const *g, int n, int panels)
{
    return panels > 1 && !any_phase_single(g, n) ? 2 : 1;
}

static void phases_canvas(const struct group_fit *const *g, int n, int *w, int *h)
{
    const char *techniques[n > 0 ? n : 1];
    int k = phase_techniques(g, n, techniques) + any_phase_single(g, n), cols = phase_columns(g, n, k);
    *w = (any_phase_single(g, n) ? 2 : cols) * PANEL_W;
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

static const char *const phase_names[] = {"forward", "backward", "optimizer step"};

/* One technique's panel: its colour, one dash per group and one point
 * type per phase, lines joining the points of one seq_len only
 * (phases-I.dat holds one block per seq_len). */
static void phase_panel(FILE *f, const struct group_fit *const *g, int n, const char *technique)
{
    char title[1500], label[700], text[800], colour[64];
    fprintf(f, "set title %s\nset xlabel \"tokens per micro-batch, b x s\"\nset ylabel \"phase peak (MiB)\"\n"
               "set key below horizontal maxrows 2 Left reverse\nset grid\nplot ",
            gnuplot_quote(technique, title, sizeof title));
    const char *sep = "";
    for (int i = 0; i < n; i++) {
        if (!g[i]->has_phases || strcmp(g[i]->key.technique, technique) != 0)
            continue; /* an empty data file would stop gnuplot */
        panel_label(label, sizeof label, g, n, i);
        for (int p = 0; p < 3; p++) {
            snprintf(text, sizeof text, "%s%s%s", label, label[0] ? ": " : "", phase_names[p]);
            fprintf(f, "%s\"phases-%d.dat\" using 1:%d with linespoints%s pt %d ps 1.3 title %s", sep, i, p + 2,
                    series_colour(colour, sizeof colour, g, i), 5 + 2 * p, gnuplot_quote(text, title, sizeof title));
            sep = ", \\\n     ";
        }
    }
    fprintf(f, "\n");
}

/* The groups measured at one token count: a bar per phase, in greys (the
 * techniques' colours stay the techniques'), the group named below. */
static void phase_bars_panel(FILE *f)
{
    fprintf(f, "set title 'measured at one point each'\nset xlabel \"\"\nset ylabel \"phase peak (MiB)\"\n"
               "set key top right horizontal outside Left reverse\nset bmargin 4\nset style data histograms\n"
               "set style histogram clustered gap 1\nset style fill solid 0.9 border -1\nset xtics scale 0\n"
               "plot \"phase-bars.dat\" using 2:xtic(1) lc rgb '#D0D0D0' title '%s', \"\" using 3 lc rgb '#8C8C8C' "
               "title '%s', \"\" using 4 lc rgb '#404040' title '%s'\n"
               "unset style\nset style data points\nset bmargin\n",
            phase_names[0], phase_names[1], phase_names[2]);
}

static void phases_chart(FILE *f, const struct group_fit *const *g, int n)
{
    const char *techniques[n > 0 ? n : 1];
    char quoted[3000];
    int lines = phase_techniques(g, n, techniques), k = lines + any_phase_single(g, n), cols = phase_columns(g, n, k);
    fprintf(f, "set multiplot layout %d,%d title %s\n", (k + cols - 1) / cols, cols,
            chart_title_text(g, n, "peak of each phase of a step (live tensors above baseline); lines join one "
                                   "seq_len; points with the same b x s share a position", quoted, sizeof quoted));
    for (int t = 0; t < lines; t++)
        phase_panel(f, g, n, techniques[t]);
    if (k > lines)
        phase_bars_panel(f);
    fprintf(f, "unset multiplot\n");
}

/* Room below the chart for the legend's rows (key_outside). */
static void legend_canvas(int entries, int *w, int *h)
{
    *w = CHART_W;
    *h = CHART_H + (entries + KEY_COLUMNS - 1) / KEY_COLUMNS * KEY_ROW_H + 10;
}

static void peak_canvas(const struct group_fit *const *g, int n, int *w, int *h)
{
    int entries = n;
    for (int i = 0; i < n; i++)
        entries += g[i]->n_held > 0;
    legend_canvas(entries, w, h);
}

static void residual_canvas(const struct group_fit *const *g, int n, int *w, int *h)
{
    int entries = 0;
    for (int i = 0; i < n; i++)
        entries += group_chosen(g[i]) != NULL;
    legend_canvas(entries, w, h);
}

static void throughput_canvas(const struct group_fit *const *g, int n, int *w, int *h)
{
    int entries = 0;
    for (int i = 0; i < n; i++)
        entries += any_step_time(&g[i], 1);
    legend_canvas(entries, w, h);
}

/* plot_charts.h */
const struct plot_chart plot_charts[] = {
    {"peak_vs_tokens", any_point, "no successful points", peak_chart, peak_canvas},
    {"residuals", any_fitted, "no group could be fitted (each needs two distinct token counts)", residual_chart,
     residual_canvas},
    {"breakdown", any_fitted, "no group could be fitted (each needs two distinct token counts)", breakdown_chart,
     NULL},
    {"throughput", any_step_time, "no step times were recorded", throughput_chart, throughput_canvas},
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
