/* grid_cmd.c: `peakfit grid SWEEP`: the sweep checked as `run` checks it,
 * its points listed, nothing run. */
#include <stdio.h>
#include <stdlib.h>
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
    if (g->warnings)
        fputs(g->warnings, stderr);
    return s;
}

int grid_main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit grid SWEEP\n");
        return EXIT_BAD_INPUT;
    }
    struct grid g;
    int status;
    struct sweep *s = grid_cmd_load(argv[1], &g, &status);
    if (!s)
        return status;
    for (int i = 0; i < g.n; i++)
        printf("%s\n", g.points[i].id);
    char summary[128];
    grid_summary(&g, summary, sizeof summary);
    fprintf(stderr, "peakfit: %s: %s\n", argv[1], summary);
    grid_free(&g);
    sweep_free(s);
    return EXIT_DONE;
}
