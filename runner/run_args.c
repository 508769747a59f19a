/* run_args.c: `peakfit run`'s (and `all`'s) options, one table for the
 * option engine (util/options.h): SWEEP, -o DIR, -j N, and a Slurm task's
 * --point K, --chunk C, --sweep-points N; and the checks between them. */
#include <stddef.h>
#include <stdio.h>
#include "runner/run_sweep.h"
#include "sweeps/limits.h"
#include "util/exit_status.h"
#include "util/options.h"

#define RUN_FIELD(f) offsetof(struct run_options, f)

static const struct opt_row run_rows[] = {
    {"output", 'o', "DIR", OPT_TEXT, RUN_FIELD(dir), .flags = OPT_REQUIRED,
     .help = "the directory for peaks.csv and the results"},
    {"jobs", 'j', "N", OPT_INT, RUN_FIELD(jobs), 1, RUN_JOBS_MAX, .flags = OPT_DEF_WORDS, .def = "the sweep's jobs key",
     .help = "points measured at once"},
    {"point", 0, "K", OPT_LONG, RUN_FIELD(point), 0, LIMIT_GRID_POINTS_MAX - 1,
     .flags = OPT_DEF_WORDS, .def = "every point",
     .help = "a Slurm task: measure only task K's points"},
    {"chunk", 0, "C", OPT_INT, RUN_FIELD(chunk), 1, LIMIT_GRID_POINTS_MAX, .def = "1", .flags = OPT_NOTE_GIVEN,
     .given_off = RUN_FIELD(chunk_given),
     .help = "with --point: points per task (K*C .. K*C+C-1)"},
    {"sweep-points", 0, "N", OPT_LONG, RUN_FIELD(sweep_points), 1, LIMIT_GRID_POINTS_MAX,
     .flags = OPT_DEF_WORDS, .def = "any",
     .help = "with --point: the grid size the Slurm array was written for"},
};

const struct opt_table run_options_table = OPT_TABLE("run", "SWEEP", run_rows, NULL);

/* The checks between options: a Slurm task's options go with --point. */
static const char *task_problem(const struct run_options *o, int chunk_given)
{
    if (chunk_given && o->point < 0)
        return "--chunk C needs --point K: it sets how many points task K measures";
    if (o->sweep_points && o->point < 0)
        return "--sweep-points N needs --point K: it checks a Slurm task's sweep";
    return NULL;
}

int run_options_defaults(struct run_options *o, char *why, size_t size)
{
    *o = (struct run_options){.point = -1}; /* --point's "every point" */
    return opt_defaults(run_rows, (int)(sizeof run_rows / sizeof run_rows[0]), o, NULL, why, size);
}

int run_sweep_args(int argc, char **argv, struct run_options *o, char *why, size_t size)
{
    int n;
    if (run_options_defaults(o, why, size) != 0 ||
        opt_parse_args(&run_options_table, argc, argv, o, &o->sweep, 1, &n, why, size) != 0)
        return -1;
    const char *problem = task_problem(o, o->chunk_given);
    if (!problem && n == 0)
        problem = "needs a SWEEP file";
    if (problem)
        snprintf(why, size, "%s", problem);
    return problem ? -1 : 0;
}

int run_sweep_args_or_say(int argc, char **argv, struct run_options *o)
{
    char why[1024];
    if (run_sweep_args(argc, argv, o, why, sizeof why) == 0)
        return 0;
    if (argc > 1) /* a bare `peakfit run`: the synopsis says it all */
        fprintf(stderr, "peakfit %s: %s\n", argv[0], why);
    fprintf(stderr, "usage: peakfit %s ", argv[0]);
    char synopsis[1024];
    opt_synopsis(&run_options_table, synopsis, sizeof synopsis);
    fprintf(stderr, "%s\n", synopsis);
    return EXIT_BAD_INPUT;
}
