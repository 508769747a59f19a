/* grid_cmd.c: `peakfit grid SWEEP [--peaks] [-o DIR]`: the sweep checked
 * as `run` checks it, its points listed, nothing run; with --peaks (or
 * -o DIR) what each point is expected to hold at its peak, so that a sweep too big for the machine is
 * seen before it runs: from the fit of DIR's measurements where DIR has
 * the point's group, else from arithmetic (point/predict.h: weights,
 * gradients and AdamW state by parameter count, activations per token by
 * the layer layout). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "fit/fit_set.h"
#include "reports/calc.h"
#include "runner/grid_load.h"
#include "point/predict.h"
#include "store/results_csv.h"
#include "src/grid_cmd.h"
#include "core/technique.h"
#include "util/exit_status.h"
#include "util/options.h"

/* The point's expected peak (MiB, baseline included) from the fit of its
 * group in set; -1 when set has no such fitted group; -2 with err set when
 * the process asked for cannot be planned for it (a calibration by a
 * command that is not there). */
static double from_fit(const struct fit_set *set, const struct grid_point *p, enum plan_process process,
                       char *err, size_t errlen)
{
    struct group_key key;
    results_number num;
    if (!set)
        return -1;
    /* Each key field is named after the peaks.csv column it comes from:
     * the text the point's row would hold there. */
#define FROM_COLUMN(field, ...) \
    snprintf(key.field, sizeof key.field, "%s", results_column_text(PEAKS_COL_##field, p, NULL, num));
    GROUP_KEY_ALL(FROM_COLUMN)
#undef FROM_COLUMN
    const struct group_fit *g = fit_set_find(set, &key, calc_metric(set, &key));
    if (!g || !group_chosen(g) || !technique_runs_steps(p->technique))
        return -1;
    const char *words;
    struct calibration cal;
    const struct process_term *term = plan_process_term(set, process, g, NULL, &cal, &words, err, errlen);
    double y = group_predict(g, p->batch, p->seq_len, NULL);
    return term ? g->baseline_mib + y + process_term_at(term, y) : -2;
}

/* Each point's expected peak and the total on stderr: EXIT_DONE, or
 * EXIT_BAD_INPUT after the message where a point's process cannot be
 * planned. */
static int print_expected(const struct sweep *s, const struct grid *g, const struct fit_set *set,
                          enum plan_process process)
{
    struct predictor pr;
    double largest = 0, total = 0;
    int at = -1, fitted = 0;
    char err[2048];
    predictor_init(&pr, s);
    for (int i = 0; i < g->n; i++) {
        double mib = from_fit(set, &g->points[i], process, err, sizeof err);
        if (mib == -2) {
            fprintf(stderr, "peakfit: %s: %s\n", g->points[i].id, err);
            predictor_free(&pr);
            return EXIT_BAD_INPUT;
        }
        const char *source = mib >= 0 ? "fit" : "arithmetic";
        fitted += mib >= 0;
        if (mib < 0)
            mib = predictor_peak_mib(&pr, &g->points[i]);
        fprintf(stderr, "  %s: expected peak %.0f MiB (%s)\n", g->points[i].id, mib, source);
        total += mib;
        if (mib > largest)
            largest = mib, at = i;
    }
    if (at >= 0)
        fprintf(stderr, "peakfit: expected peaks: largest %.0f MiB (%s), all %d points together %.0f MiB; %d from "
                "the fit, %d from arithmetic\n", largest, g->points[at].id, g->n, total, fitted, g->n - fitted);
    /* PREDICT_ARITHMETIC_*: bench/results/arithmetic-error.txt's "all" row,
     * given by the Makefile. */
    if (fitted < g->n)
        fprintf(stderr, "peakfit: the arithmetic is a rough estimate: %+.1f %% to %+.1f %% off the measured peak RSS "
                "over %d points (bench/results/arithmetic-error.txt); measure a point for a number to plan with\n",
                PREDICT_ARITHMETIC_MIN_PCT, PREDICT_ARITHMETIC_MAX_PCT, PREDICT_ARITHMETIC_POINTS);
    predictor_free(&pr);
    return EXIT_DONE;
}

/* DIR's fit, or NULL (said on stderr) when it has none yet. */
static struct fit_set *open_fit(const char *dir, struct fit_set *set)
{
    char err[4400];
    if (!dir)
        return NULL;
    if (fit_set_load(dir, set, err, sizeof err) == 0)
        return set;
    fprintf(stderr, "peakfit: %s: no fit to predict from (%s); expected peaks by arithmetic\n", dir, err);
    fit_set_free(set);
    return NULL;
}

struct grid_args {
    const char *sweep, *dir;
    int peaks, process;
};

static const struct opt_row grid_rows[] = {
    {"peaks", 0, NULL, OPT_FLAG, offsetof(struct grid_args, peaks),
     .help = "each point's expected peak, and the total"},
    {"output", 'o', "DIR", OPT_TEXT, offsetof(struct grid_args, dir),
     .help = "with --peaks (which it implies): predict from DIR's fit where it has the point's group"},
    PLAN_PROCESS_OPTION_ROW(offsetof(struct grid_args, process)),
};

const struct opt_table grid_options = OPT_TABLE("grid", "SWEEP", grid_rows, NULL);

/* SWEEP [--peaks] [-o DIR]: 0, or EXIT_BAD_INPUT after the message and the usage line. */
static int parse_args(int argc, char **argv, struct grid_args *a)
{
    char why[1024];
    int n;
    *a = (struct grid_args){0};
    int rc = opt_defaults(grid_rows, (int)(sizeof grid_rows / sizeof grid_rows[0]), a, NULL, why, sizeof why);
    rc = rc ? rc : opt_parse_args(&grid_options, argc, argv, a, &a->sweep, 1, &n, why, sizeof why);
    a->peaks |= a->dir != NULL;
    if (rc == 0 && n == 1)
        return 0;
    fprintf(stderr, "peakfit grid: %s\n", rc ? why : "needs a SWEEP file");
    opt_print_synopsis(&grid_options, stderr);
    return EXIT_BAD_INPUT;
}

int grid_main(int argc, char **argv)
{
    struct grid g;
    struct fit_set set = {0};
    struct grid_args a;
    int status;
    if (parse_args(argc, argv, &a) != 0)
        return EXIT_BAD_INPUT;
    struct sweep *s = grid_load(a.sweep, &g, &status);
    if (!s)
        return status;
    /* DIR's fit predicts this sweep's points only where it measured the
     * same model: a config changed at its path is another (resume refuses it too). */
    if (a.dir && (status = grid_load_check_configs(a.dir, &g)) != EXIT_DONE) {
        grid_free(&g);
        sweep_free(s);
        return status;
    }
    for (int i = 0; i < g.n; i++)
        printf("%s\n", g.points[i].id);
    fflush(stdout);
    struct fit_set *fitted = open_fit(a.dir, &set);
    status = a.peaks ? print_expected(s, &g, fitted, (enum plan_process)a.process) : EXIT_DONE;
    char summary[128];
    grid_summary(&g, summary, sizeof summary);
    if (status == EXIT_DONE)
        fprintf(stderr, "peakfit: %s: %s\n", a.sweep, summary);
    if (fitted)
        fit_set_free(fitted);
    grid_free(&g);
    sweep_free(s);
    return status;
}
