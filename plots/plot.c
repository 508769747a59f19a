/* plot.c: the gnuplot script, and running gnuplot on it. Series titles
 * come from peaks.csv, so they reach the script only through
 * gnuplot_quote (plots/gnuplot_text.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "plots/gnuplot_text.h"
#include "plots/plot.h"
#include "plots/plot_data.h"
#include "util/exit_status.h"

static const char *const terminals[][2] = {
    {"png", "set terminal pngcairo noenhanced size 1000,640 font \"sans,11\""},
    {"svg", "set terminal svg noenhanced size 1000,640 font \"sans,11\" dynamic"},
};

/* The series title of group i as a gnuplot string literal. */
static const char *series_title(char *out, size_t size, const struct group_fit *const *g, int n, int i)
{
    char label[700];
    plot_group_label(label, sizeof label, g, n, i, " ");
    return gnuplot_quote(label, out, size);
}

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
    char title[1500];
    fprintf(f, "set title \"Peak RSS above baseline vs tokens per micro-batch (fit and 95%% band)\"\n"
               "set xlabel \"tokens per micro-batch, b x s\"\nset ylabel \"peak above baseline (MiB)\"\n"
               "set key left top\nset style fill transparent solid 0.15 noborder\nplot ");
    for (int i = 0; i < n; i++) {
        if (group_chosen(g[i])) /* a single batch size gives points but no line */
            fprintf(f, "%s\"fit-%d.dat\" using 1:3:4 with filledcurves lc %d notitle, "
                       "\"fit-%d.dat\" using 1:2 with lines lc %d lw 2 notitle", i ? ", \\\n     " : "",
                    i, i + 1, i, i + 1);
        fprintf(f, "%s\"points-%d.dat\" using 1:2 with points pt 7 ps 1.3 lc %d title %s",
                i || group_chosen(g[i]) ? ", \\\n     " : "", i, i + 1, series_title(title, sizeof title, g, n, i));
        if (g[i]->n_held > 0) /* open circles: measured, not fitted */
            fprintf(f, ", \\\n     \"held-%d.dat\" using 1:2 with points pt 6 ps 1.8 lc %d title \"held out, verify\"",
                    i, i + 1);
    }
    fprintf(f, "\n");
}

static void residual_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[1500];
    fprintf(f, "set title \"Residuals of the chosen fit\"\nset xlabel \"tokens per micro-batch, b x s\"\n"
               "set ylabel \"observed - predicted (MiB)\"\nset key left top\nplot 0 with lines lc rgb \"gray\" notitle");
    for (int i = 0; i < n; i++)
        if (group_chosen(g[i]))
            fprintf(f, ", \\\n     \"residuals-%d.dat\" using 1:2 with points pt 7 ps 1.3 lc %d title %s", i, i + 1,
                    series_title(title, sizeof title, g, n, i));
    fprintf(f, "\n");
}

static void breakdown_chart(FILE *f, const struct group_fit *const *g, int n)
{
    (void)g, (void)n; /* the bars' labels are in breakdown.dat */
    fprintf(f, "set title \"Memory breakdown at the largest measured batch (F split by measured fixed costs)\"\n"
               "set xlabel \"\"\nset ylabel \"MiB above baseline\"\nset key outside right top\n"
               "set style data histograms\nset style histogram rowstacked\n"
               "set style fill solid 0.85 border -1\nset boxwidth 0.6\nset bmargin 6\n"
               "plot \"breakdown.dat\" using 2:xtic(1) title \"weights\", \"\" using 3 title \"gradients\", "
               "\"\" using 4 title \"optimizer state\", \"\" using 5 title \"activations (b x A_sample)\", "
               "\"\" using 6 title \"other overhead\"\n"
               "unset style\nset style data points\nset key inside left top\n");
}

static void throughput_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[1500];
    const char *sep = "";
    fprintf(f, "set title \"Training throughput (mean of steps after the first)\"\n"
               "set xlabel \"tokens per micro-batch, b x s\"\nset ylabel \"tokens per second\"\nset key left top\nplot ");
    for (int i = 0; i < n; i++) {
        if (!any_step_time(&g[i], 1))
            continue; /* an empty data file would stop gnuplot */
        fprintf(f, "%s\"throughput-%d.dat\" using 1:2 with points pt 7 ps 1.3 lc %d title %s", sep, i, i + 1,
                series_title(title, sizeof title, g, n, i));
        sep = ", \\\n     ";
    }
    fprintf(f, "\n");
}

static int any_phases(const struct group_fit *const *g, int n)
{
    for (int i = 0; i < n; i++)
        if (g[i]->hinge)
            return 1;
    return 0;
}

/* Each group's three phases, one colour per group, one point type per phase. */
static void phases_chart(FILE *f, const struct group_fit *const *g, int n)
{
    static const char *const phase[] = {"forward", "backward", "optimizer step"};
    char title[1500], label[700], text[800];
    const char *sep = "";
    fprintf(f, "set title \"Peak of each phase of a step (live tensors above baseline) vs tokens\"\n"
               "set xlabel \"tokens per micro-batch, b x s\"\nset ylabel \"phase peak (MiB)\"\nset key left top\nplot ");
    for (int i = 0; i < n; i++) {
        if (!g[i]->hinge)
            continue; /* an empty data file would stop gnuplot */
        plot_group_label(label, sizeof label, g, n, i, " ");
        for (int k = 0; k < 3; k++) {
            snprintf(text, sizeof text, "%s: %s", label, phase[k]);
            fprintf(f, "%s\"phases-%d.dat\" using 1:%d with linespoints pt %d ps 1.3 lc %d title %s", sep, i, k + 2,
                    5 + 2 * k, i + 1, gnuplot_quote(text, title, sizeof title));
            sep = ", \\\n     ";
        }
    }
    fprintf(f, "\n");
}

/* Each chart: its file name, whether it has anything to draw (and why not),
 * and its part of the script. */
static const struct chart {
    const char *name;
    int (*has_series)(const struct group_fit *const *g, int n);
    const char *empty_reason;
    void (*script)(FILE *f, const struct group_fit *const *g, int n);
} charts[] = {
    {"peak_vs_tokens", any_point, "no successful points", peak_chart},
    {"residuals", any_fitted, "no group could be fitted (each needs two distinct token counts)", residual_chart},
    {"breakdown", any_fitted, "no group could be fitted (each needs two distinct token counts)", breakdown_chart},
    {"throughput", any_step_time, "no step times were recorded", throughput_chart},
    {"peak_by_phase", any_phases, "no group has per-phase peaks (training techniques, measured by this version)",
     phases_chart},
};
const int plot_chart_count = sizeof charts / sizeof charts[0];

const char *plot_chart_name(int chart) { return charts[chart].name; }

const char *plot_chart_empty(const struct fit_set *set, int chart)
{
    const struct group_fit **g;
    int n = plot_groups(set, &g);
    int has = n > 0 && charts[chart].has_series(g, n);
    free(g);
    return has ? NULL : charts[chart].empty_reason;
}

static int write_script(const char *dir, const struct group_fit *const *g, int n)
{
    struct output_file out;
    if (plot_file_open(&out, dir, "peakfit.gp") != 0)
        return -1;
    fprintf(out.f, "# Written by peakfit plot; edit and run `gnuplot peakfit.gp` in this folder.\n");
    for (int t = 0; t < 2; t++) {
        fprintf(out.f, "\n%s\n", terminals[t][1]);
        for (int c = 0; c < plot_chart_count; c++) {
            if (!charts[c].has_series(g, n))
                continue;
            fprintf(out.f, "set output \"%s.%s\"\nreset\nset grid\n", charts[c].name, terminals[t][0]);
            charts[c].script(out.f, g, n);
        }
        fprintf(out.f, "unset output\n");
    }
    return plot_file_commit(&out);
}

/* Chart files that would be stale (a chart with nothing to draw now) or
 * empty (gnuplot stopped after opening them) are removed, so that report
 * never links them. */
static void remove_undrawn(const char *dir, const struct group_fit *const *g, int n)
{
    char path[4400];
    struct stat st;
    for (int c = 0; c < plot_chart_count; c++)
        for (int t = 0; t < 2; t++) {
            snprintf(path, sizeof path, "%s/%s.%s", dir, charts[c].name, terminals[t][0]);
            if (stat(path, &st) == 0 && (!charts[c].has_series(g, n) || st.st_size == 0))
                unlink(path);
        }
}

int plot_have_gnuplot(void)
{
    const char *path = getenv("PATH");
    char dir[4096], candidate[4200];
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)len, path);
        snprintf(candidate, sizeof candidate, "%s/gnuplot", dir[0] ? dir : ".");
        if (access(candidate, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

static int run_gnuplot(const char *dir)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(127);
        execlp("gnuplot", "gnuplot", "peakfit.gp", (char *)NULL);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int draw(const char *dir, const struct group_fit *const *g, int n)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "peakfit: %s: cannot create: %s\n", dir, strerror(errno));
        return EXIT_IO;
    }
    if (plot_data_write(dir, g, n) != 0 || write_script(dir, g, n) != 0)
        return EXIT_IO;
    remove_undrawn(dir, g, n);
    if (!plot_have_gnuplot()) {
        fprintf(stderr, "peakfit: gnuplot is not on PATH (install gnuplot-nox, or run make deps): "
                "charts not drawn; their data and script are in %s\n", dir);
        return EXIT_IO;
    }
    int rc = run_gnuplot(dir);
    remove_undrawn(dir, g, n);
    if (rc != 0) {
        fprintf(stderr, "peakfit: gnuplot failed on %s/peakfit.gp\n", dir);
        return EXIT_IO;
    }
    for (int c = 0; c < plot_chart_count; c++)
        if (!charts[c].has_series(g, n))
            fprintf(stderr, "peakfit: no %s chart: %s\n", charts[c].name, charts[c].empty_reason);
    return EXIT_DONE;
}

int plot_write(const struct fit_set *set)
{
    const struct group_fit **g;
    char dir[4200];
    int n = plot_groups(set, &g);
    if (n < 0) {
        fprintf(stderr, "peakfit: out of memory\n");
        return EXIT_IO;
    }
    int rc = EXIT_BAD_INPUT;
    if (n == 0)
        fprintf(stderr, "peakfit: %s/peaks.csv: no successful points: no chart to draw\n", set->dir);
    else {
        snprintf(dir, sizeof dir, "%s/plots", set->dir);
        rc = draw(dir, g, n);
    }
    free(g);
    return rc;
}

int plot_main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit plot DIR\n");
        return EXIT_BAD_INPUT;
    }
    struct fit_set set;
    if (fit_set_open(argv[1], &set) != 0) {
        fit_set_free(&set);
        return EXIT_BAD_INPUT;
    }
    int rc = plot_write(&set);
    if (rc == EXIT_DONE)
        fprintf(stderr, "peakfit: charts in %s/plots\n", argv[1]);
    fit_set_free(&set);
    return rc;
}
