/* verify_plan.c: one or two real runs test the predicted boundary, where a
 * batch-size finder needs log2(n). The points are measured as `run`
 * measures them, with the settings of the group's own rows in peaks.csv
 * and mem_limit = budget less the fit's baseline, into
 * DIR/verify-GROUP-sS-BUDGETMiB/ (a second verify of the same plan
 * resumes there). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "reports/calc.h"
#include "runner/run_sweep.h"
#include "sweeps/limits.h"
#include "settings/peaks_columns.h"
#include "util/csv_table.h"
#include "util/exit_status.h"
#include "verify/verify_judge.h"
#include "verify/verify_plan.h"
#include "verify/verify_sweep.h"

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

int verify_plan(const char *dir, const struct fit_set *set, const struct calc_request *req)
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
    int found = verify_group_row(&t, &p.fit->key, fields);
    /* Every part of the group key, so that two groups' verifies never share a directory. */
    char named[1024];
    group_key_text(&p.fit->key, "-", "", named, sizeof named);
    snprintf(vdir, sizeof vdir, "%s/verify-%s-s%ld-%.0fMiB", dir, named, p.seq_len, req->budget_mib);
    snprintf(sweep, sizeof sweep, "%s/verify.sweep", vdir);
    int rc = found != 0 ? (fprintf(stderr, "peakfit: %s: no row of this version for the group\n", path), EXIT_BAD_INPUT)
             : verify_same_config(path, fields) != EXIT_DONE ? EXIT_BAD_INPUT
             : mkdir(vdir, 0755) != 0 && errno != EEXIST ? (fprintf(stderr, "peakfit: %s: %s\n", vdir, strerror(errno)), EXIT_IO)
                                                        : verify_write_sweep(sweep, fields, &p, limit_mib);
    csv_table_free(&t);
    if (rc != EXIT_DONE)
        return rc; /* said why; nothing ran, so there is nothing to judge */
    rc = run_sweep(sweep, vdir);
    /* EXIT_NO_RESULT (every run failed: an answer to judge) is EXIT_IO's
     * number: a run that could not write its peaks.csv has said why. */
    char runs[sizeof vdir + 16];
    snprintf(runs, sizeof runs, "%s/peaks.csv", vdir);
    return rc == EXIT_DONE || (rc == EXIT_NO_RESULT && access(runs, R_OK) == 0) ? verify_judge(vdir, &p, limit_mib) : rc;
}
