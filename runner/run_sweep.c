/* run_sweep.c: validates everything first, then runs the points not yet
 * in DIR/peaks.csv, each in a fresh worker process, N at a time
 * (runner/pool.h); or, with --point, one Slurm task's share of them. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "runner/grid.h"
#include "runner/grid_cmd.h"
#include "runner/out_dir.h"
#include "runner/results_csv.h"
#include "runner/run_sweep.h"
#include "runner/worker_command.h"
#include "runner/pool.h"
#include "runner/spawn.h"
#include "sweeps/limits.h"
#include "sweeps/attention.h"
#include "sweeps/device.h"
#include "sweeps/technique.h"
#include "util/exit_status.h"
#include "util/near_name.h"
#include "util/parse.h"

struct progress {
    int total, mine, to_run, ran, ok; /* mine: the points this run is for (a task's, or all) */
    time_t started;
};

static void request_stop(int sig)
{
    (void)sig;
    spawn_stop_requested = 1;
}

/* SIGHUP (the terminal closed, nohup's absence) stops a run as Ctrl-C
 * does: the point in progress is dropped, the rows stay, resumable.
 * SIGPIPE is ignored: a progress stream that closed (`run ... | head -1`)
 * must not end the sweep. Workers inherit that (runner/spawn.c). */
static void install_stop_handlers(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = request_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Debian's libtorch calls BLAS through libblas.so.3; when that is the
 * reference (netlib) BLAS, every step is many times slower: say so once. */
static void warn_about_blas(const struct point_result *r)
{
    static int warned;
    if (warned || !strstr(r->blas, "/blas/libblas"))
        return;
    warned = 1;
    fprintf(stderr, "peakfit: warning: workers use the reference BLAS (%s); steps will be very slow. "
            "Install libopenblas0-pthread (make deps).\n", r->blas);
}

static void clock_text(char *out, size_t size, long s)
{
    if (s >= 3600)
        snprintf(out, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, size, "%ld:%02ld", s / 60, s % 60);
}

static void print_progress(struct progress *pr, int index, const struct grid_point *p,
                           const struct point_result *r)
{
    long elapsed = (long)(time(NULL) - pr->started);
    long eta = pr->ran ? elapsed * (pr->to_run - pr->ran) / pr->ran : 0;
    char el[48], et[48], peak[48] = "";
    clock_text(el, sizeof el, elapsed);
    clock_text(et, sizeof et, eta);
    if (r->peak_rss_mib >= 0 && r->baseline_rss_mib >= 0)
        snprintf(peak, sizeof peak, " peak +%.1f MiB", r->peak_rss_mib - r->baseline_rss_mib);
    fprintf(stderr, "[%d/%d] %s %s %s b=%d s=%d r%d: %s%s (%.1f s) | elapsed %s, ETA %s\n",
            index + 1, pr->total, p->job->name, p->model, technique_name(p->technique), p->batch,
            p->seq_len, p->repeat, r->status, peak, r->wall_s, el, et);
}

/* Every point this run measured failed (none of its own before it in the
 * file; other tasks' rows do not count): exit non-zero, so a script does
 * not take an empty fit for a result. */
static int nothing_succeeded(const struct progress *pr, const char *csv_path)
{
    int done_before = pr->mine - pr->to_run;
    if (pr->ran == 0 || pr->ok > 0 || done_before > 0)
        return 0;
    fprintf(stderr, "peakfit: no point succeeded (%d failed: see the status and error columns of %s)\n",
            pr->ran, csv_path);
    return 1;
}

/* The locks a run holds: DIR/.peakfit.lock and peaks.csv itself. */
struct run_locks {
    int dir, results;
};

static void release_locks(struct run_locks *locks)
{
    if (locks->dir >= 0)
        close(locks->dir);
    if (locks->results >= 0)
        close(locks->results);
}

/* Everything that can fail before the first point: directory, locks, CSV,
 * the sweep's copy. Returns an exit status; *fd is the results file's. */
static int open_results(const char *sweep_path, const char *dir, const char *csv_path,
                        const struct grid *g, struct run_locks *locks, int *fd, unsigned char *done)
{
    char err[1024];
    int rc = out_dir_prepare(dir);
    if (rc != EXIT_DONE)
        return rc;
    if ((locks->dir = out_dir_lock(dir)) < 0)
        return EXIT_IO;
    /* Before results_open reads (and may cut) the file: a runner whose
     * lock file was deleted under it still holds this one. */
    if ((locks->results = out_dir_lock_results(dir, csv_path)) == -2)
        return EXIT_IO;
    *fd = results_open(csv_path, g, done, err, sizeof err);
    if (*fd < 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        /* results_open: -2 for a file that is not this sweep's peaks.csv
         * (bad input), -1 when it cannot be read or written. */
        return *fd == -2 ? EXIT_BAD_INPUT : EXIT_IO;
    }
    if (locks->results < 0 && out_dir_lock_fd(*fd, dir, csv_path) != 0)
        return EXIT_IO; /* made just now, by another runner as well */
    return out_dir_keep_sweep(sweep_path, dir) == 0 ? EXIT_DONE : EXIT_IO;
}

/* What the record callback needs: where rows go and how the run goes. */
struct run_ctx {
    const struct run_options *o;
    const struct grid *g;
    const char *csv_path;
    int fd;             /* the results file, locked for the whole run; -1 under --point */
    struct progress pr;
};

/* --point: the results file is locked only to read it and to append, so
 * that the tasks of one sweep take turns. A point another task recorded
 * meanwhile (a requeued or rerun task) is not written twice. 0, -1 (errno)
 * or an exit status. */
static int append_row_once(struct run_ctx *c, int i, const struct point_result *r)
{
    const struct run_options *o = c->o;
    struct run_locks locks = {-1, -1};
    int fd = -1;
    unsigned char *now = calloc((size_t)c->g->n + 1, 1);
    int rc = now ? open_results(o->sweep, o->dir, c->csv_path, c->g, &locks, &fd, now) : EXIT_IO;
    if (rc == EXIT_DONE && now[i])
        fprintf(stderr, "peakfit: point %s is already in %s (another task recorded it): not written again\n",
                c->g->points[i].id, c->csv_path);
    else if (rc == EXIT_DONE)
        rc = results_append(fd, &c->g->points[i], r);
    if (fd >= 0)
        close(fd);
    release_locks(&locks);
    free(now);
    return rc;
}

static int append_row(struct run_ctx *c, int i, const struct point_result *r)
{
    if (c->fd >= 0)
        return results_append(c->fd, &c->g->points[i], r);
    return append_row_once(c, i, r);
}

static int record(void *ctx, int i, const struct point_result *r)
{
    struct run_ctx *c = ctx;
    int rc = append_row(c, i, r);
    if (rc < 0) {
        fprintf(stderr, "peakfit: %s: cannot append a row: %s\n", c->csv_path, strerror(errno));
        return EXIT_IO;
    }
    if (rc > 0)
        return rc;
    c->pr.ran++;
    c->pr.ok += strcmp(r->status, "ok") == 0;
    print_progress(&c->pr, i, &c->g->points[i], r);
    warn_about_blas(r);
    return EXIT_DONE;
}

/* The number of workers at once: -j, else the largest `jobs` of the sweep's jobs. */
static int jobs_of(const struct run_options *o, const struct sweep *s)
{
    int n = o->jobs;
    for (int i = 0; n == 0 && i < s->n_jobs; i++)
        n = s->jobs[i].jobs;
    for (int i = 0; o->jobs == 0 && i < s->n_jobs; i++)
        n = s->jobs[i].jobs > n ? s->jobs[i].jobs : n;
    return n > 0 ? n : 1;
}

static int run_points(struct run_ctx *c, const struct sweep *s, const unsigned char *done)
{
    const struct grid *g = c->g;
    c->pr = (struct progress){.total = g->n, .started = time(NULL)};
    for (int i = 0; i < g->n; i++) {
        c->pr.to_run += !done[i];
        c->pr.mine += c->o->point < 0 || i / c->o->chunk == c->o->point;
    }
    if (c->pr.to_run < g->n && c->o->point < 0)
        fprintf(stderr, "peakfit: resuming: %d of %d points already in %s\n", g->n - c->pr.to_run, g->n,
                c->csv_path);
    int rc = pool_run(s, g, done, jobs_of(c->o, s), record, c);
    if (rc == EXIT_INTERRUPTED && c->o->point >= 0)
        fprintf(stderr, "peakfit: interrupted; the points in progress were stopped and not recorded. "
                "%d of task %ld's %d points are in %s; run the same command again to resume.\n",
                c->pr.mine - c->pr.to_run + c->pr.ran, c->o->point, c->pr.mine, c->csv_path);
    else if (rc == EXIT_INTERRUPTED)
        fprintf(stderr, "peakfit: interrupted; the points in progress were stopped and not recorded. "
                "%d points are in %s; run the same command again to resume.\n",
                g->n - c->pr.to_run + c->pr.ran, c->csv_path);
    if (rc != EXIT_DONE)
        return rc;
    if (c->o->point < 0)
        fprintf(stderr, "peakfit: %d points in %s\n", g->n, c->csv_path);
    return nothing_succeeded(&c->pr, c->csv_path) ? EXIT_NO_RESULT : EXIT_DONE;
}

/* --point K [--chunk C]: is there a task K, and (--sweep-points N, from
 * the script `peakfit slurm` wrote) is the grid still the one the array
 * was written for? Named before anything is created when not. */
static int check_task_point(const struct run_options *o, const struct grid *g)
{
    if (o->sweep_points > 0 && g->n != o->sweep_points) {
        fprintf(stderr, "peakfit: %s has %d points, but this Slurm array was written for %ld: the sweep changed "
                "since `peakfit slurm`; write the job script again, into a new -o DIR\n", o->sweep, g->n,
                o->sweep_points);
        return EXIT_BAD_INPUT;
    }
    long tasks = ((long)g->n + o->chunk - 1) / o->chunk;
    if (o->point < tasks)
        return EXIT_DONE;
    fprintf(stderr, "peakfit: --point %ld: the sweep has %d points, %ld task%s of %d (--point 0 to %ld)\n", o->point,
            g->n, tasks, tasks == 1 ? "" : "s", o->chunk, tasks - 1);
    return EXIT_BAD_INPUT;
}

/* Only points K*C .. K*C+C-1 are task K's: every other one counts as done.
 * After open_results, which sets done from what peaks.csv holds. */
static void keep_task_points(const struct run_options *o, const struct grid *g, unsigned char *done)
{
    for (long i = 0; i < g->n; i++)
        if (i / o->chunk != o->point)
            done[i] = 1;
}

int run_sweep_with(const struct run_options *o)
{
    char csv_path[PATH_MAX];
    install_stop_handlers(); /* a stop before the first point ends the run at it */
    out_dir_lock_waits(o->point >= 0);
    struct grid g;
    int rc;
    struct sweep *s = grid_cmd_load(o->sweep, &g, &rc);
    if (!s)
        return rc;
    if (worker_command_check() != 0) { /* before anything is created */
        grid_free(&g);
        sweep_free(s);
        return EXIT_IO;
    }
    struct run_locks locks = {-1, -1};
    struct run_ctx c = {.o = o, .g = &g, .csv_path = csv_path, .fd = -1};
    unsigned char *done = calloc((size_t)g.n + 1, 1);
    snprintf(csv_path, sizeof csv_path, "%s/peaks.csv", o->dir); /* fits: out_dir_prepare checks */
    rc = done ? EXIT_DONE : EXIT_IO;
    if (rc == EXIT_DONE && o->point >= 0)
        rc = check_task_point(o, &g);
    if (rc == EXIT_DONE)
        rc = open_results(o->sweep, o->dir, csv_path, &g, &locks, &c.fd, done);
    if (rc == EXIT_DONE && o->point >= 0) {
        keep_task_points(o, &g, done);
        close(c.fd); /* taken again for each row */
        c.fd = -1;
        release_locks(&locks);
        locks = (struct run_locks){-1, -1};
    }
    if (rc == EXIT_DONE)
        rc = run_points(&c, s, done);
    if (c.fd >= 0)
        close(c.fd);
    release_locks(&locks);
    free(done);
    grid_free(&g);
    sweep_free(s);
    return rc;
}

int run_sweep(const char *sweep_path, const char *out_dir)
{
    struct run_options o = {.sweep = sweep_path, .dir = out_dir, .point = -1, .chunk = 1};
    return run_sweep_with(&o);
}

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

int run_sweep_main(int argc, char **argv)
{
    struct run_options o;
    if (run_sweep_args(argc, argv, &o) != 0)
        return EXIT_BAD_INPUT;
    return run_sweep_with(&o);
}
