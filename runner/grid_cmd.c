/* grid_cmd.c: `peakfit grid SWEEP`: the sweep checked as `run` checks it,
 * its points listed, nothing run. */
#include <stdio.h>
#include <stdlib.h>
#include "runner/grid.h"
#include "runner/grid_cmd.h"
#include "util/exit_status.h"

int grid_main(int argc, char **argv)
{
    char err[1024];
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit grid SWEEP\n");
        return EXIT_BAD_INPUT;
    }
    struct sweep *s = sweep_load(argv[1], err, sizeof err);
    if (!s) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    /* Call site for the sweeps helper's device check (grid_check_devices
     * in runner/grid.c): a device this libtorch lacks is bad input here,
     * as in `run`, before any point is listed. */
    struct grid g;
    if (grid_expand(s, &g) != 0) {
        free(s);
        return EXIT_IO;
    }
    for (int i = 0; i < g.n; i++)
        printf("%s\n", g.points[i].id);
    fprintf(stderr, "peakfit: %s: %d points\n", argv[1], g.n);
    grid_free(&g);
    free(s);
    return EXIT_DONE;
}
