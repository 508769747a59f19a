/* report_time.c: where a sweep's time went, from the workers' own clocks:
 * the measured steps, building the model, and the rest (process start,
 * loading libtorch, the baseline, teardown). */
#include "reports/report_sections.h"

struct time_shares {
    double wall, steps, build;
    int points;
};

static void add_point(struct time_shares *t, const struct observation *o)
{
    if (o->wall_s <= 0)
        return;
    t->points++;
    t->wall += o->wall_s;
    t->build += o->build_s > 0 ? o->build_s : 0;
    if (o->step1_s > 0)
        t->steps += o->step1_s + (o->steps > 1 ? (o->steps - 1) * o->step_mean_s : 0);
}

void section_time(FILE *f, const struct fit_set *set)
{
    struct time_shares t = {0};
    for (int i = 0; i < set->obs.n_ok; i++)
        add_point(&t, &set->obs.ok[i]);
    for (int i = 0; i < set->obs.n_failed; i++)
        add_point(&t, &set->obs.failed[i]);
    fprintf(f, "## Where the time went\n\n");
    if (t.wall <= 0) {
        fprintf(f, "No worker timings recorded.\n\n");
        return;
    }
    double rest = t.wall - t.steps - t.build;
    fprintf(f, "Summed over the %d workers' wall clocks (%.1f s in all):\n\n"
               "| part | seconds | share |\n|---|---|---|\n"
               "| model compute (the measured steps) | %.1f | %.1f%% |\n"
               "| building the model (random init) | %.1f | %.1f%% |\n"
               "| process start, libtorch load, baseline, teardown | %.1f | %.1f%% |\n\n"
               "Step times (`step_mean_s`) are the mean of the steps after the first when a point ran several, "
               "else its one step. With `warm = 0` (the default) the first step also makes the optimizer's "
               "state, as a plain loop does; with `warm = 1` the state is made before the first step, so that "
               "step is already a steady-state one. Either way its time is in the compute share.\n\n",
            t.points, t.wall, t.steps, 100 * t.steps / t.wall, t.build, 100 * t.build / t.wall, rest,
            100 * rest / t.wall);
}
