/* grid_load.c: a sweep checked and expanded as `grid` (src/grid_cmd.c) and
 * `run` both need it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "point/command_job.h"
#include "runner/device_check.h"
#include "point/grid.h"
#include "runner/grid_load.h"
#include "util/csv_table.h"
#include "util/exit_status.h"

/* Each command job's program, found and executable? Checked on the job's
 * first point. EXIT_DONE, or EXIT_BAD_INPUT after "peakfit: SWEEP:LINE: job
 * [NAME]: command \"x\": not found on PATH" (or why it cannot run) on stderr. */
static int command_jobs_check(const struct grid *g)
{
    const struct sweep_job *checked = NULL;
    for (int i = 0; i < g->n; i++) {
        const struct grid_point *p = &g->points[i];
        if (p->job == checked || !command_job_is(p))
            continue;
        checked = p->job;
        struct command_argv argv;
        char path[PATH_MAX], err[512];
        if (command_job_argv(p, p->job->threads, &argv, path, err, sizeof err) != 0) {
            fprintf(stderr, "peakfit: %s:%d: job [%s]: %s\n", g->sweep_path, p->job->command_line, p->job->name,
                    err);
            return EXIT_BAD_INPUT;
        }
        command_argv_free(&argv);
    }
    return EXIT_DONE;
}

struct sweep *grid_load(const char *sweep_path, struct grid *g, int *status)
{
    char err[1024];
    struct sweep *s = sweep_load(sweep_path, err, sizeof err);
    if (!s) {
        fprintf(stderr, "peakfit: %s\n", err);
        *status = EXIT_BAD_INPUT;
        return NULL;
    }
    /* Devices this libtorch lacks, too many points, or no memory for them:
     * said here, for grid and run alike, before anything is listed or created. */
    *status = device_check_sweep(s, err, sizeof err) == 0 ? grid_build(s, g, err, sizeof err) : EXIT_BAD_INPUT;
    if (*status != EXIT_DONE) {
        fprintf(stderr, "peakfit: %s\n", err);
        sweep_free(s);
        return NULL;
    }
    *status = command_jobs_check(g); /* each command job's program is there and runs */
    if (*status != EXIT_DONE) {
        grid_free(g);
        sweep_free(s);
        return NULL;
    }
    if (g->warnings)
        fputs(g->warnings, stderr);
    return s;
}

int grid_load_check_configs(const char *dir, const struct grid *g)
{
    char path[PATH_MAX + 16], err[PATH_MAX + 512], now[32];
    struct csv_table t;
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    if (access(path, F_OK) != 0 || csv_table_read(path, &t, err, sizeof err) != 0)
        return EXIT_DONE; /* no fit there either: open_fit says so */
    int source = csv_table_column(&t, "model_source"), hash = csv_table_column(&t, "config_hash"), rc = EXIT_DONE;
    for (int r = 0; source >= 0 && hash >= 0 && rc == EXIT_DONE && r < t.n_rows; r++) {
        const char *had = t.rows[r].fields[hash], *at = t.rows[r].fields[source];
        for (int i = 0; had[0] && rc == EXIT_DONE && i < g->n; i++) {
            const struct grid_point *p = &g->points[i];
            snprintf(now, sizeof now, "%016llx", (unsigned long long)p->config_hash);
            if (p->config_hash && strcmp(p->model_source, at) == 0 && strcmp(now, had) != 0) {
                fprintf(stderr, "peakfit: %s changed since %s was measured (config_hash %s there, %s now): its "
                        "fit is another model's; use another -o DIR, or restore the config\n", at, path, had, now);
                rc = EXIT_BAD_INPUT;
            }
        }
    }
    csv_table_free(&t);
    return rc;
}
