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
#include "point/grid.h"
#include "runner/grid_load.h"
#include "store/out_dir.h"
#include "store/results_csv.h"
#include "runner/run_sweep.h"
#include "proc/worker_binary.h"
#include "runner/pool.h"
#include "proc/spawn.h"
#include "core/technique.h"
#include "util/exit_status.h"

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
 * must not end the sweep. Workers inherit that (proc/spawn.c). */
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
    struct sweep *s = grid_load(o->sweep, &g, &rc);
    if (!s)
        return rc;
    if (worker_binary_check() != 0) { /* before anything is created */
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
    struct run_options o;
    char why[256];
    if (run_options_defaults(&o, why, sizeof why) != 0) {
        fprintf(stderr, "peakfit: run's options: %s\n", why);
        return EXIT_BAD_INPUT;
    }
    o.sweep = sweep_path;
    o.dir = out_dir;
    return run_sweep_with(&o);
}
