/* plot.c: the gnuplot script, and running gnuplot on it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "plots/plot.h"
#include "plots/plot_data.h"

const char *const plot_charts[] = {"peak_vs_tokens", "residuals", "breakdown", "throughput"};
const int plot_chart_count = 4;

enum { MAX_CHARTED = 64 };

static const char *const terminals[][2] = {
    {"png", "set terminal pngcairo noenhanced size 1000,640 font \"sans,11\""},
    {"svg", "set terminal svg noenhanced size 1000,640 font \"sans,11\" dynamic"},
};

static void series_title(char *out, size_t size, const struct group_fit *const *g, int n, int i)
{
    int many_models = 0;
    for (int j = 0; j < n; j++)
        many_models |= strcmp(g[j]->model, g[0]->model) != 0;
    if (many_models)
        snprintf(out, size, "%s %s", g[i]->model, g[i]->technique);
    else
        snprintf(out, size, "%s", g[i]->technique);
}

static void peak_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[300];
    fprintf(f, "set title \"Peak RSS above baseline vs tokens per micro-batch (fit and 95%% band)\"\n"
               "set xlabel \"tokens per micro-batch, b x s\"\nset ylabel \"peak above baseline (MiB)\"\n"
               "set key left top\nset style fill transparent solid 0.15 noborder\nplot ");
    for (int i = 0; i < n; i++) {
        series_title(title, sizeof title, g, n, i);
        if (group_chosen(g[i])) /* a single batch size gives points but no line */
            fprintf(f, "%s\"fit-%d.dat\" using 1:3:4 with filledcurves lc %d notitle, "
                       "\"fit-%d.dat\" using 1:2 with lines lc %d lw 2 notitle", i ? ", \\\n     " : "",
                    i, i + 1, i, i + 1);
        fprintf(f, "%s\"points-%d.dat\" using 1:2 with points pt 7 ps 1.3 lc %d title \"%s\"",
                i || group_chosen(g[i]) ? ", \\\n     " : "", i, i + 1, title);
    }
    fprintf(f, "\n");
}

static void residual_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[300];
    fprintf(f, "set title \"Residuals of the chosen fit\"\nset xlabel \"tokens per micro-batch, b x s\"\n"
               "set ylabel \"observed - predicted (MiB)\"\nset key left top\nplot 0 with lines lc rgb \"gray\" notitle");
    for (int i = 0; i < n; i++) {
        if (!group_chosen(g[i]))
            continue;
        series_title(title, sizeof title, g, n, i);
        fprintf(f, ", \\\n     \"residuals-%d.dat\" using 1:2 with points pt 7 ps 1.3 lc %d title \"%s\"", i,
                i + 1, title);
    }
    fprintf(f, "\n");
}

static void breakdown_chart(FILE *f)
{
    fprintf(f, "set title \"Memory breakdown at the largest measured batch (F split by measured fixed costs)\"\n"
               "set xlabel \"\"\nset ylabel \"MiB above baseline\"\nset key outside right top\n"
               "set style data histograms\nset style histogram rowstacked\n"
               "set style fill solid 0.85 border -1\nset boxwidth 0.6\nset bmargin 5\n"
               "plot \"breakdown.dat\" using 2:xtic(1) title \"weights\", \"\" using 3 title \"gradients\", "
               "\"\" using 4 title \"optimizer state\", \"\" using 5 title \"activations (b x A_sample)\", "
               "\"\" using 6 title \"other overhead\"\n"
               "unset style\nset style data points\nset key inside left top\n");
}

static void throughput_chart(FILE *f, const struct group_fit *const *g, int n)
{
    char title[300];
    fprintf(f, "set title \"Training throughput (mean of steps after the first)\"\n"
               "set xlabel \"tokens per micro-batch, b x s\"\nset ylabel \"tokens per second\"\nset key left top\nplot ");
    for (int i = 0; i < n; i++) {
        series_title(title, sizeof title, g, n, i);
        fprintf(f, "%s\"throughput-%d.dat\" using 1:2 with points pt 7 ps 1.3 lc %d title \"%s\"",
                i ? ", \\\n     " : "", i, i + 1, title);
    }
    fprintf(f, "\n");
}

static int write_script(const char *path, const struct group_fit *const *g, int n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# Written by peakfit plot; edit and run `gnuplot peakfit.gp` in this folder.\n");
    for (int t = 0; t < 2; t++) {
        fprintf(f, "\n%s\n", terminals[t][1]);
        for (int c = 0; c < plot_chart_count; c++) {
            fprintf(f, "set output \"%s.%s\"\nreset\nset grid\n", plot_charts[c], terminals[t][0]);
            if (c == 0) peak_chart(f, g, n);
            if (c == 1) residual_chart(f, g, n);
            if (c == 2) breakdown_chart(f);
            if (c == 3) throughput_chart(f, g, n);
        }
        fprintf(f, "unset output\n");
    }
    return fclose(f);
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

int plot_write(const struct fit_set *set)
{
    const struct group_fit *groups[MAX_CHARTED];
    char dir[600], script[700];
    int n = plot_groups(set, groups, MAX_CHARTED);
    snprintf(dir, sizeof dir, "%s/plots", set->dir);
    snprintf(script, sizeof script, "%s/peakfit.gp", dir);
    if ((mkdir(dir, 0755) != 0 && errno != EEXIST) || plot_data_write(dir, groups, n) != 0 ||
        write_script(script, groups, n) != 0) {
        fprintf(stderr, "peakfit: %s: cannot write the chart data\n", dir);
        return -1;
    }
    if (!plot_have_gnuplot()) {
        fprintf(stderr, "peakfit: gnuplot is not on PATH (install gnuplot-nox, or run make deps): "
                "charts not drawn; their data and script are in %s\n", dir);
        return -1;
    }
    if (run_gnuplot(dir) != 0) {
        fprintf(stderr, "peakfit: gnuplot failed on %s\n", script);
        return -1;
    }
    return 0;
}

int plot_main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit plot DIR\n");
        return 2;
    }
    struct fit_set set;
    if (fit_set_open(argv[1], &set) != 0)
        return 2;
    int rc = plot_write(&set) == 0 ? 0 : 1;
    if (rc == 0)
        fprintf(stderr, "peakfit: charts in %s/plots\n", argv[1]);
    fit_set_free(&set);
    return rc;
}
