/* plot.c: the gnuplot script (each chart's part from plot_charts.c) in
 * each terminal, and running gnuplot on it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "plots/plot.h"
#include "plots/plot_charts.h"
#include "plots/plot_data.h"
#include "util/exit_status.h"

/* Each terminal, as "set terminal NAME size W,H OPTIONS": the size is the chart's. */
static const char *const terminals[][3] = {
    {"png", "pngcairo noenhanced", "font \"sans,11\""},
    {"svg", "svg noenhanced", "font \"sans,11\" dynamic"},
};


static int write_script(const char *dir, const struct group_fit *const *g, int n)
{
    struct output_file out;
    if (plot_file_open(&out, dir, "peakfit.gp") != 0)
        return -1;
    fprintf(out.f, "# Written by peakfit plot; edit and run `gnuplot peakfit.gp` in this folder.\n");
    for (int t = 0; t < 2; t++) {
        for (int c = 0; c < plot_chart_count; c++) {
            if (!plot_charts[c].has_series(g, n))
                continue;
            int w = 1100, h = 640;
            if (plot_charts[c].canvas)
                plot_charts[c].canvas(g, n, &w, &h);
            fprintf(out.f, "\nset terminal %s size %d,%d %s\nset output \"%s.%s\"\nreset\nset grid\n",
                    terminals[t][1], w, h, terminals[t][2], plot_charts[c].name, terminals[t][0]);
            plot_charts[c].script(out.f, g, n);
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
            snprintf(path, sizeof path, "%s/%s.%s", dir, plot_charts[c].name, terminals[t][0]);
            if (stat(path, &st) == 0 && (!plot_charts[c].has_series(g, n) || st.st_size == 0))
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
        if (!plot_charts[c].has_series(g, n))
            fprintf(stderr, "peakfit: no %s chart: %s\n", plot_charts[c].name, plot_charts[c].empty_reason);
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
