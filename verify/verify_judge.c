/* verify_judge.c: what verify's runs say of the plan's boundary: each
 * run's line (status, measured and predicted peak, the error) and the
 * verdict, with its exit status. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fit/group_predict.h"
#include "settings/peaks_columns.h"
#include "util/csv_table.h"
#include "util/exit_status.h"
#include "verify/verify_judge.h"

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

int verify_judge(const char *vdir, const struct calc_plan *p, double limit_mib)
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
