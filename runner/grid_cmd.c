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
    /* Call site for the sweeps helper's device check (grid_check_devices
     * in runner/grid.c): a device this libtorch lacks is bad input here,
     * for grid and run alike, before anything is listed or created. */
    if (grid_expand(s, g) != 0) {
        fprintf(stderr, "peakfit: %s: out of memory expanding the grid\n", sweep_path);
        free(s);
        *status = EXIT_IO;
        return NULL;
    }
    *status = EXIT_DONE;
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
    fprintf(stderr, "peakfit: %s: %d points\n", argv[1], g.n);
    grid_free(&g);
    free(s);
    return EXIT_DONE;
}
