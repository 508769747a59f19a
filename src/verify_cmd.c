/* verify_cmd.c: one or two real runs test the predicted boundary, where a
 * batch-size finder needs log2(n). The points are measured as `run`
 * measures them, with the settings of the group's own rows in peaks.csv
 * and mem_limit = budget less the fit's baseline, into
 * DIR/verify-TECHNIQUE-sS-BUDGETMiB/ (a second verify of the same plan
 * resumes there). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "models/model_spec.h"
#include "reports/calc.h"
#include "point/point_fields.h"
#include "runner/run_sweep.h"
#include "core/technique.h"
#include "reports/verify_options.h"
#include "fit/observations.h"
#include "sweeps/limits.h"
#include "sweeps/sweep_write.h"
#include "src/verify_cmd.h"
#include "util/csv_table.h"
#include "util/exit_status.h"
#include "util/options.h"
#include "util/output_file.h"
#include "util/parse.h"
#include "sweeps/peaks_columns.h"

static int usage(const char *why)
{
    fprintf(stderr, "peakfit verify: %s\n", why);
    opt_print_synopsis(&verify_options, stderr);
    return EXIT_BAD_INPUT;
}

static int parse_args(int argc, char **argv, struct calc_request *r, const char **dir)
{
    char why[1024];
    return verify_parse_args(argc, argv, r, dir, why, sizeof why) == 0 ? 0 : usage(why);
}

/* Does a row of this version hold key, field by field? Each field of the
 * group key is named as the peaks.csv column it is read from. */
static int row_in_group(const char *const *f, const struct group_key *key)
{
#define SAME_FIELD(field, ...)                     \
    if (strcmp(f[PEAKS_COL_##field], key->field)) \
        return 0;
    GROUP_KEY_ALL(SAME_FIELD)
#undef SAME_FIELD
    return 1;
}

/* The fields of the group's first ok row of DIR/peaks.csv (by column,
 * observation_fields): how its points were measured. Rows from before a
 * column of the fixed ones do not say enough; 0, or -1 when none. */
static int group_row(const struct csv_table *t, const struct group_key *key, const char *f[PEAKS_N_COLUMNS])
{
    for (int r = 0; r < t->n_rows; r++) {
        if (t->rows[r].n_fields < PEAKS_N_FIXED_COLUMNS)
            continue;
        observation_fields(&t->rows[r], f);
        if (!strcmp(f[PEAKS_COL_status], "ok") && row_in_group(f, key))
            return 0;
    }
    return -1;
}

/* The config the group's rows were measured on is the one at its path now
 * (its config_hash; a preset has none): else verify would measure another
 * model against this fit, as resume refuses to mix it in. EXIT_DONE, or
 * EXIT_BAD_INPUT after saying so. */
static int same_config(const char *path, const char *const *f)
{
    const char *had = f[PEAKS_COL_config_hash], *source = f[PEAKS_COL_model_source];
    struct model_spec now;
    char err[4400], hash[32];
    if (!had[0])
        return EXIT_DONE;
    if (model_spec_read(source, &now, err, sizeof err) != 0)
        return fprintf(stderr, "peakfit: verify: %s\n", err), EXIT_BAD_INPUT;
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)now.config_hash);
    if (strcmp(hash, had) == 0)
        return EXIT_DONE;
    fprintf(stderr, "peakfit: verify: %s changed since %s was measured (config_hash %s there, %s now): the fit is "
            "another model's; measure this one with run, or restore the config\n", source, path, had, hash);
    return EXIT_BAD_INPUT;
}

/* Every setting of the group's row, as the sweep key that set it; the
 * plan sets the rest. An empty column is the key's default. */
static void write_settings(struct sweep_writer *w, const char *const *f, const struct calc_plan *p, double limit_mib)
{
    const struct point_field *pf;
    int batches[2] = {(int)p->max_micro_batch, (int)p->max_micro_batch + 1};
    sweep_write_comment(w, "Written by peakfit verify: the predicted largest micro-batch and the next size up,\n"
                           "under a memory limit of the budget less the fit's baseline.");
    sweep_write_section(w, "verify");
    for (int i = 0; (pf = point_field_at(i)); i++)
        if (pf->key && !(pf->uses & POINT_PLANNED) && f[pf->column][0])
            sweep_write_value(w, pf->key, f[pf->column]);
    sweep_write_ints(w, "batch", batches, 2);
    sweep_write_valuef(w, "seq_len", "%ld", p->seq_len);
    sweep_write_valuef(w, "mem_limit", "%.0fB", floor(limit_mib * 1048576));
}

static int write_sweep(const char *path, const char *const *f, const struct calc_plan *p, double limit_mib)
{
    char err[4400];
    struct output_file out;
    struct sweep_writer w;
    if (output_file_open(&out, path, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    sweep_writer_start(&w, out.f, err, sizeof err);
    write_settings(&w, f, p, limit_mib);
    if (sweep_writer_end(&w) != 0) {
        output_file_abandon(&out);
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (output_file_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    return EXIT_DONE;
}

/* The status and peak of batch b in the verify run's peaks.csv: the peak
 * in the plan's metric (on a GPU the reserved peak, what the plan was made
 * against; on the CPU RSS above the baseline). */
static const char *outcome_of(const struct csv_table *t, long b, enum metric m, const char **peak)
{
    char text[32];
    snprintf(text, sizeof text, "%ld", b);
    for (int r = t->n_rows - 1; r >= 0; r--)
        if (t->rows[r].n_fields == PEAKS_N_COLUMNS && !strcmp(t->rows[r].fields[PEAKS_COL_batch], text)) {
            *peak = t->rows[r].fields[metric_peaks_column(m)];
            return t->rows[r].fields[PEAKS_COL_status];
        }
    *peak = "";
    return "not measured";
}

/* A passing point closer than this to the limit is one small change from
 * failing: said, so that the plan is not read as comfortable. */
#define VERIFY_NEAR_LIMIT 0.02

/* What one run says of the boundary. A point over the limit that the
 * watchdog's 20 ms reading missed did not fit; a timeout (or a run that
 * never ended) says nothing about memory. */
enum run_answer { RUN_FITS, RUN_DOES_NOT_FIT, RUN_NO_ANSWER };

struct verify_run {
    long b;
    const char *what, *status;
    double measured; /* in the plan's metric; NAN: none */
    enum run_answer answer;
};

static struct verify_run read_run(const struct csv_table *t, const struct calc_plan *p, long b, const char *what,
                                  double limit_mib)
{
    const char *peak;
    struct verify_run r = {.b = b, .what = what, .measured = NAN};
    r.status = outcome_of(t, b, p->fit->metric, &peak);
    if (peak[0] && sscanf(peak, "%lf", &r.measured) != 1)
        r.measured = NAN;
    if (!strcmp(r.status, "timeout") || !strcmp(r.status, "not measured"))
        r.answer = RUN_NO_ANSWER;
    else
        r.answer = !strcmp(r.status, "ok") && !(r.measured > limit_mib) ? RUN_FITS : RUN_DOES_NOT_FIT;
    return r;
}

/* One run's line: its status, the measured and the predicted peak, the
 * prediction's error in % of the measured peak (of a run that did not
 * end by itself, the peak seen until it was stopped). */
static void print_run(const struct calc_plan *p, const struct verify_run *r, double limit_mib)
{
    double half, predicted = group_predict(p->fit, (double)r->b, (double)p->seq_len, &half);
    half = p->other_machine ? group_other_machine_pi95(p->fit, predicted, half) : half;
    const char *as = metric_measured_as(p->fit->metric);
    int ok = !strcmp(r->status, "ok");
    printf("  b = %ld (%s): %s, predicted %.1f MiB (95%%: +-%.1f)", r->b, r->what, r->status, predicted, half);
    if (isfinite(r->measured) && ok)
        printf(", measured %.1f MiB %s, error %+.1f%%", r->measured, as, 100 * (predicted - r->measured) / r->measured);
    else if (isfinite(r->measured))
        printf(", peak seen before it ended %.1f MiB %s", r->measured, as);
    printf("\n");
    if (ok && r->measured > limit_mib)
        printf("  warning: b = %ld measured %.1f MiB, over the limit of %.1f MiB (read every 20 ms, the limit "
               "missed it): it does not fit\n", r->b, r->measured, limit_mib);
    else if (ok && r->measured >= (1 - VERIFY_NEAR_LIMIT) * limit_mib)
        printf("  warning: b = %ld passed within %.0f%% of the limit (%.1f of %.1f MiB): a small change can push "
               "it over\n", r->b, 100 * VERIFY_NEAR_LIMIT, r->measured, limit_mib);
}

/* The verdict's line and exit status: the boundary held (b fits, b + 1
 * does not), did not (b does not fit, or b + 1 fits too), or a run that
 * timed out left it untested. */
static int verdict(const struct verify_run *at_b, const struct verify_run *above)
{
    if (at_b->answer == RUN_DOES_NOT_FIT) {
        printf("  the predicted boundary did not hold: the predicted largest batch did not fit\n");
        return EXIT_BOUNDARY_MISSED;
    }
    const struct verify_run *open = at_b->answer == RUN_NO_ANSWER ? at_b : above->answer == RUN_NO_ANSWER ? above : NULL;
    if (open) {
        printf("  no verdict: b = %ld %s, which says nothing about memory; give the group's rows a longer "
               "timeout and verify again\n", open->b,
               strcmp(open->status, "timeout") ? "was not measured" : "ran out of time");
        return EXIT_NO_VERDICT;
    }
    if (above->answer == RUN_FITS) {
        printf("  the predicted boundary did not hold: the next size up fitted too (the prediction is conservative)\n");
        return EXIT_BOUNDARY_MISSED;
    }
    printf("  the predicted boundary held\n");
    return EXIT_DONE;
}

static int judge(const char *vdir, const struct calc_plan *p, double limit_mib)
{
    char path[4400], err[4600], key[400];
    struct csv_table t;
    snprintf(path, sizeof path, "%s/peaks.csv", vdir);
    if (csv_table_read(path, &t, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    struct verify_run at_b = read_run(&t, p, p->max_micro_batch, "predicted largest", limit_mib),
                      above = read_run(&t, p, p->max_micro_batch + 1, "next size up", limit_mib);
    group_key_format(&p->fit->key, key, sizeof key);
    printf("verify %s, seq_len %ld (%s): memory limit %.1f MiB above the baseline (%.1f MiB)\n", key, p->seq_len,
           p->process_words, limit_mib, p->fit->baseline_mib);
    if (p->calibration.command)
        printf("  peakfit's worker runs the plan under the limit at which your command's predicted peak (the "
               "worker's plus the calibration by %s, %+.1f MiB) reaches the budget\n",
               p->calibration.command->key.measured_by, p->calibration.mean_mib);
    else if (p->process->technique_class)
        printf("  peakfit's worker runs the plan under the limit at which a Python trainer's predicted peak "
               "reaches the budget (the process term's inverse)\n");
    if (p->other_machine)
        printf("  on another machine: the fit was %s; this run checks the plan here\n", p->other_machine_why);
    print_run(p, &at_b, limit_mib);
    print_run(p, &above, limit_mib);
    /* The runs' status texts point into the table: free it after the verdict. */
    int status = verdict(&at_b, &above);
    csv_table_free(&t);
    return status;
}

/* verify runs the plan here, at batches b and b+1: refused before any
 * directory or worker when those cannot be run (past LIMIT_BATCH_MAX, a
 * sweep the tool would then refuse itself) or, on cpu, when the budget is
 * more than this machine's memory (workers of terabytes). */
static int plan_runnable(const struct calc_plan *p, const struct calc_request *req)
{
    if (p->max_micro_batch + 1 > LIMIT_BATCH_MAX) {
        fprintf(stderr, "peakfit: verify: the plan's micro-batch %ld (and %ld) is past the largest a sweep runs, "
                "%ld: give a smaller --budget\n", p->max_micro_batch, p->max_micro_batch + 1, LIMIT_BATCH_MAX);
        return EXIT_BAD_INPUT;
    }
    double machine_mib = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) / 1048576.0;
    if (strcmp(p->fit->key.device, "cpu") == 0 && machine_mib > 0 && req->budget_mib > machine_mib) {
        fprintf(stderr, "peakfit: verify: --budget %.0f MiB is more than this machine's memory (%.0f MiB): verify "
                "runs the plan here; give a budget it can hold\n", req->budget_mib, machine_mib);
        return EXIT_BAD_INPUT;
    }
    return EXIT_DONE;
}

static int verify(const char *dir, const struct fit_set *set, const struct calc_request *req)
{
    char err[4400], vdir[4300], sweep[4400], path[4300];
    struct calc_plan p;
    struct csv_table t;
    if (calc_plan_make(set, req, &p, err, sizeof err) != 0)
        return fprintf(stderr, "peakfit: %s\n", err), EXIT_BAD_INPUT;
    if (p.max_micro_batch < 1)
        return fprintf(stderr, "peakfit: no micro-batch fits %.0f MiB within its interval: nothing to verify\n",
                       req->budget_mib), EXIT_PLAN_DOES_NOT_FIT;
    if (strcmp(p.fit->key.measured_by, "worker") != 0)
        return fprintf(stderr, "peakfit: verify: %s: this fit was measured by a command job (measured_by %s), and "
                       "verify runs peakfit's own worker, another program: run your command at micro-batch %ld and "
                       "%ld with mem_limit = %.1fMiB in its sweep to test the plan\n", dir, p.fit->key.measured_by,
                       p.max_micro_batch, p.max_micro_batch + 1, req->budget_mib - p.fit->baseline_mib),
               EXIT_BAD_INPUT;
    int runnable = plan_runnable(&p, req);
    if (runnable != EXIT_DONE)
        return runnable;
    /* The worker runs the plan: for a Python trainer's process or a
     * calibrated command's, under the worker's peak at which theirs would
     * reach the budget. */
    double limit_mib = process_term_worker_limit(p.process, req->budget_mib - p.fit->baseline_mib);
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    if (csv_table_read(path, &t, err, sizeof err) != 0)
        return fprintf(stderr, "peakfit: %s\n", err), EXIT_BAD_INPUT;
    const char *fields[PEAKS_N_COLUMNS];
    int found = group_row(&t, &p.fit->key, fields);
    /* Every part of the group key, so that two groups' verifies never share a directory. */
    char named[1024];
    group_key_text(&p.fit->key, "-", "", named, sizeof named);
    snprintf(vdir, sizeof vdir, "%s/verify-%s-s%ld-%.0fMiB", dir, named, p.seq_len, req->budget_mib);
    snprintf(sweep, sizeof sweep, "%s/verify.sweep", vdir);
    int rc = found != 0 ? (fprintf(stderr, "peakfit: %s: no row of this version for the group\n", path), EXIT_BAD_INPUT)
             : same_config(path, fields) != EXIT_DONE ? EXIT_BAD_INPUT
             : mkdir(vdir, 0755) != 0 && errno != EEXIST ? (fprintf(stderr, "peakfit: %s: %s\n", vdir, strerror(errno)), EXIT_IO)
                                                        : write_sweep(sweep, fields, &p, limit_mib);
    csv_table_free(&t);
    if (rc != EXIT_DONE)
        return rc; /* said why; nothing ran, so there is nothing to judge */
    rc = run_sweep(sweep, vdir);
    /* EXIT_NO_RESULT (every run failed: an answer to judge) is EXIT_IO's
     * number: a run that could not write its peaks.csv has said why. */
    char runs[sizeof vdir + 16];
    snprintf(runs, sizeof runs, "%s/peaks.csv", vdir);
    return rc == EXIT_DONE || (rc == EXIT_NO_RESULT && access(runs, R_OK) == 0) ? judge(vdir, &p, limit_mib) : rc;
}

int verify_main(int argc, char **argv)
{
    struct calc_request req = {.replicas = 1}; /* the technique's default is its option row's */
    const char *dir = NULL;
    if (parse_args(argc, argv, &req, &dir) != 0)
        return EXIT_BAD_INPUT;
    struct fit_set set;
    int rc = fit_set_open(dir, &set) == 0 ? verify(dir, &set, &req) : EXIT_BAD_INPUT;
    fit_set_free(&set);
    return rc;
}
