/* run_args.c: `peakfit run`'s command line (runner/run_sweep.h): SWEEP,
 * -o DIR, -j N, and a Slurm task's --point K, --chunk C, --sweep-points N. */
#include <stdio.h>
#include <string.h>
#include "runner/run_sweep.h"
#include "sweeps/limits.h"
#include "util/near_name.h"
#include "util/parse.h"

static int is_output_flag(const char *arg) { return strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0; }

/* A whole-number option's value, lo .. hi; 0, or -1 after naming it. */
static int number_option(const char *flag, const char *value, long lo, long hi, long *out)
{
    if (value && parse_long(value, lo, hi, out) == 0)
        return 0;
    fprintf(stderr, "peakfit: %s needs a whole number from %ld to %ld, not \"%s\"\n", flag, lo, hi,
            value ? value : "");
    return -1;
}

/* run's own options: -j N, --point K, --chunk C. 1 when argv[*i] is one
 * (its value consumed), 0 when it is not, -1 when its value is bad or it
 * was given before (*given: the RUN_GIVEN_ bits seen so far). */
enum { RUN_GIVEN_JOBS = 1, RUN_GIVEN_POINT = 2, RUN_GIVEN_CHUNK = 4, RUN_GIVEN_SWEEP_POINTS = 8 };

static int run_option(int argc, char **argv, int *i, struct run_options *o, unsigned *given)
{
    const char *flag = argv[*i], *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    long v;
    int rc, which = !strcmp(flag, "-j") || !strcmp(flag, "--jobs") ? RUN_GIVEN_JOBS
                    : !strcmp(flag, "--point")                      ? RUN_GIVEN_POINT
                    : !strcmp(flag, "--chunk")                      ? RUN_GIVEN_CHUNK
                    : !strcmp(flag, "--sweep-points")               ? RUN_GIVEN_SWEEP_POINTS
                                                                    : 0;
    /* Twice is a mistake (a script's default and an override?): neither
     * value is taken silently. */
    if (which & *given) {
        fprintf(stderr, "peakfit: %s given twice; give it once\n", flag);
        return -1;
    }
    *given |= (unsigned)which;
    if (which == RUN_GIVEN_JOBS)
        rc = number_option(flag, value, 1, RUN_JOBS_MAX, &v), o->jobs = (int)v;
    else if (!strcmp(flag, "--point"))
        rc = number_option(flag, value, 0, LIMIT_GRID_POINTS_MAX - 1, &v), o->point = v;
    else if (!strcmp(flag, "--chunk"))
        rc = number_option(flag, value, 1, LIMIT_GRID_POINTS_MAX, &v), o->chunk = (int)v;
    else if (which == RUN_GIVEN_SWEEP_POINTS)
        rc = number_option(flag, value, 1, LIMIT_GRID_POINTS_MAX, &v), o->sweep_points = v;
    else
        return 0;
    *i += 1;
    return rc == 0 ? 1 : -1;
}

/* An argument that is no option of run's and not the sweep: with the
 * option it most likely meant when it looks like a mistyped one. */
static void say_unexpected(const char *command, const char *arg)
{
    static const char *const options[] = {"output", "jobs", "point", "chunk"};
    struct near_name near;
    near_name_start(&near, arg + strspn(arg, "-"));
    for (size_t i = 0; arg[0] == '-' && i < sizeof options / sizeof options[0]; i++)
        near_name_offer(&near, options[i]);
    if (near_name_best(&near))
        fprintf(stderr, "peakfit %s: unexpected argument %s; did you mean --%s?\n", command, arg, near_name_best(&near));
    else
        fprintf(stderr, "peakfit %s: unexpected argument %s\n", command, arg);
}

int run_sweep_args(int argc, char **argv, struct run_options *o)
{
    *o = (struct run_options){.point = -1, .chunk = 1};
    unsigned given = 0;
    for (int i = 1; i < argc; i++) {
        int own = run_option(argc, argv, &i, o, &given);
        if (own < 0)
            return -1;
        if (own > 0)
            continue;
        if (is_output_flag(argv[i]) && i + 1 == argc) {
            fprintf(stderr, "peakfit %s: %s needs a value: the output directory (%s DIR)\n", argv[0], argv[i],
                    argv[i]);
            return -1;
        }
        if (is_output_flag(argv[i]))
            o->dir = argv[++i];
        else if (!o->sweep && argv[i][0] != '-')
            o->sweep = argv[i];
        else {
            say_unexpected(argv[0], argv[i]);
            return -1;
        }
    }
    if ((given & RUN_GIVEN_CHUNK) && !(given & RUN_GIVEN_POINT)) {
        fprintf(stderr, "peakfit: --chunk C needs --point K: it sets how many points task K measures\n");
        return -1;
    }
    if ((given & RUN_GIVEN_SWEEP_POINTS) && !(given & RUN_GIVEN_POINT)) {
        fprintf(stderr, "peakfit: --sweep-points N needs --point K: it checks a Slurm task's sweep\n");
        return -1;
    }
    if (o->sweep && o->dir)
        return 0;
    if (argc > 1)
        fprintf(stderr, "peakfit %s: %s\n", argv[0],
                o->sweep ? "needs -o DIR, the directory for peaks.csv and the results" : "needs a SWEEP file");
    fprintf(stderr, "usage: peakfit %s SWEEP -o|--output DIR [-j N] [--point K [--chunk C]]\n", argv[0]);
    return -1;
}
