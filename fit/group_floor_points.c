/* group_floor_points.c: which points of a group lie on the floor: an
 * allocator-level fit's, the per-phase peaks', or searched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fit/group_floor_points.h"
#include "fit/phases.h"

/* Are exact's points g's, in the same order? */
int group_same_points(const struct group_fit *g, const struct group_fit *exact)
{
    if (!exact || exact->n != g->n || !exact->on_floor)
        return 0;
    for (int i = 0; i < g->n; i++)
        if (exact->points[i] != g->points[i])
            return 0;
    return 1;
}

/* The floor with its points given (marks, n entries): kept in g when it
 * fits better than the line alone. Returns 1 kept, 0 not, -1 out of memory. */
static int floor_from(struct group_fit *g, const unsigned char *marks, int n, const double *x1, const double *x2,
                      const double *y)
{
    memcpy(g->on_floor, marks, (size_t)n);
    if (floor_given(x1, x2, y, n, g->on_floor, &g->floor) != 0)
        return -1;
    if (!g->floor.found)
        memset(g->on_floor, 0, (size_t)n);
    return g->floor.found;
}

/* The points the per-phase peaks put on the floor (fit/phases.h); 0 when
 * some point has no phases or none or all are on it. */
static int phase_marks(const struct group_fit *g, unsigned char *marks)
{
    int k = 0;
    for (int i = 0; g->has_phases && i < g->n; i++)
        k += marks[i] = (unsigned char)phases_on_floor(metric_phases(g->points[i], g->metric));
    return k > 0 && k < g->n;
}

/* The floor: exact's points where given and better than the line alone;
 * then the points the per-phase peaks put on it (the evidence a small
 * sweep has: the search below needs five points and more); else searched
 * with the quadratic where seq_len varies (else the b*s^2 term is a
 * multiple of T), then with the line if that found none. */
int group_find_floor(struct group_fit *g, const struct group_fit *exact, double *x1, double *x2, double *y)
{
    int n = group_design(g, 1, x1, x2, y), rc = 0;
    unsigned char *marks = malloc((size_t)n + 1);
    if (!marks)
        return -1;
    if (group_same_points(g, exact) && exact->floor.found)
        rc = floor_from(g, exact->on_floor, n, x1, g->n_seq >= 2 && exact->choice == CHOICE_QUADRATIC ? x2 : NULL, y);
    if (rc == 0 && phase_marks(g, marks))
        rc = floor_from(g, marks, n, x1, NULL, y);
    free(marks);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (g->n_seq >= 2) {
        if (floor_find(x1, x2, y, n, &g->floor, g->on_floor) != 0)
            return -1;
        if (g->floor.found)
            return 0;
    }
    return floor_find(x1, NULL, y, n, &g->floor, g->on_floor);
}
