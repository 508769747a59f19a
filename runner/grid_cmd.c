/* grid_cmd.c: a sweep checked and expanded as `grid` (src/grid_main.c) and
 * `run` both need it. */
#include <stdio.h>
#include <stdlib.h>
#include "runner/command_job.h"
#include "runner/grid.h"
#include "runner/grid_cmd.h"
#include "util/exit_status.h"

struct sweep *grid_cmd_load(const char *sweep_path, struct grid *g, int *status)
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
    *status = grid_build(s, g, err, sizeof err);
    if (*status != EXIT_DONE) {
        fprintf(stderr, "peakfit: %s\n", err);
        sweep_free(s);
        return NULL;
    }
    *status = command_job_check(g); /* each command job's program is there and runs */
    if (*status != EXIT_DONE) {
        grid_free(g);
        sweep_free(s);
        return NULL;
    }
    if (g->warnings)
        fputs(g->warnings, stderr);
    return s;
}
