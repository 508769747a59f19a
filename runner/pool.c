/* pool.c: N workers at once: slots, core sets, memory-aware starts. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "point/command_job.h"
#include "runner/pool.h"
#include "runner/pool_admit.h"
#include "proc/cores.h"
#include "core/device.h"
#include "protocol/worker_command.h"
#include "proc/worker_binary.h"
#include "util/clock.h"
#include "util/exit_status.h"
#include "util/parse.h"

/* Slot k gets the k-th share of the cores this runner may use. */
static void assign_cores(struct pool *pl)
{
    int cores[PROC_CORES_MAX], n = proc_cores_mine(cores, PROC_CORES_MAX);
    int share = n / pl->jobs > 0 ? n / pl->jobs : 1;
    for (int k = 0; k < pl->jobs; k++) {
        struct slot *sl = &pl->slots[k];
        proc_cores_clear(&sl->cpus);
        for (int i = 0; i < share; i++)
            proc_cores_add(&sl->cpus, cores[(k * share + i) % n]);
        sl->share = share;
        snprintf(sl->blas_env, sizeof sl->blas_env, "OPENBLAS_NUM_THREADS=%d", share);
        if (k < pl->gpus.n) {
            /* Through a copy: source and destination are both in *pl, and
             * snprintf's arguments are restrict (gcc -O1 says so). */
            char id[GPU_ID_MAX];
            memcpy(id, pl->gpus.id[k], sizeof id);
            snprintf(sl->gpu_env, sizeof sl->gpu_env, "CUDA_VISIBLE_DEVICES=%s", id);
        }
    }
}

/* Points run for minutes (a large model's build, a long step) with no
 * line until they finish: say which one starts, and that it still runs
 * every PROGRESS_EVERY_S (PEAKFIT_PROGRESS_EVERY_S, 1 ... 3600, for the
 * tests), so a silent terminal is never a hung one. */
enum { PROGRESS_EVERY_S = 30 };

static double progress_every_s(void)
{
    const char *text = getenv("PEAKFIT_PROGRESS_EVERY_S");
    long s;
    return text && parse_long(text, 1, 3600, &s) == 0 ? (double)s : PROGRESS_EVERY_S;
}

static void say_started(const struct pool *pl, const struct slot *sl)
{
    fprintf(stderr, "peakfit: starting point %d of %d: %s\n", sl->index + 1, pl->g->n, pl->g->points[sl->index].id);
}

static void say_still_running(struct pool *pl)
{
    double now = monotonic_seconds(), every = progress_every_s();
    for (int k = 0; k < pl->jobs; k++) {
        struct slot *sl = &pl->slots[k];
        if (!sl->busy || now - sl->said_s < every)
            continue;
        sl->said_s = now;
        double rss = spawn_rss_above_baseline_mib(&sl->sp);
        char memory[64] = "";
        if (rss > 0)
            snprintf(memory, sizeof memory, ", RSS +%.0f MiB above its baseline", rss);
        fprintf(stderr, "peakfit: still running point %d of %d (%.0f s so far%s): %s\n", sl->index + 1, pl->g->n,
                now - sl->started_s, memory, pl->g->points[sl->index].id);
    }
}

/* A command job's point: its own argv, watched as a process tree; its
 * mem_limit is the tree's on every device (no allocator of peakfit's
 * caps a GPU in it). */
static int start_command(struct slot *sl, const struct grid_point *p, int threads, struct spawn_options *o)
{
    struct command_argv argv;
    char path[PATH_MAX], err[512];
    if (command_job_argv(p, threads, &argv, path, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: job [%s]: %s\n", p->job->name, err);
        errno = ENOENT;
        return -1;
    }
    /* The pool's variables, then those holding the values (shell = true). */
    char *env[4 + COMMAND_MAX_ENV];
    int n = 0;
    for (char *const *e = o->env; e && *e && n < 4; e++)
        env[n++] = *e;
    for (char **e = argv.env; *e; e++)
        env[n++] = *e;
    env[n] = NULL;
    o->env = env;
    o->path = path;
    o->watch = &sl->watch;
    o->mem_limit = p->job->mem_limit;
    int rc = spawn_start(argv.argv, o, &sl->sp, &sl->r) == SPAWN_RUNNING ? 0 : -1;
    if (rc != 0 && sl->r.error[0]) {
        int err = errno;
        fprintf(stderr, "peakfit: job [%s]: %s\n", p->job->name, sl->r.error);
        errno = err;
    }
    command_argv_free(&argv);
    return rc;
}

static int start(struct pool *pl, struct slot *sl, int i, double predicted, int alone)
{
    const struct grid_point *p = &pl->g->points[i];
    int threads = p->job->threads;
    struct worker_command cmd;
    sl->gpu = gpu_use_of(&pl->gpus, pl->jobs, p->device);
    /* Its own GPU, seen as the only one (cuda = cuda:0 in the worker). */
    char *env[] = {sl->blas_env, sl->gpu == GPU_OWN ? sl->gpu_env : NULL, NULL};
    /* On a GPU the worker caps its device's allocator; RSS is not the limit. */
    struct spawn_options o = {.timeout_s = p->job->timeout_s,
                              .mem_limit = device_is_gpu(p->device) ? 0 : p->job->mem_limit};
    if (pl->jobs > 1) {
        o.cpus = &sl->cpus;
        o.env = env;
        if (threads == 0 || threads > sl->share)
            threads = sl->share;
    }
    int started;
    if (command_job_is(p))
        started = start_command(sl, p, threads, &o) == 0;
    else {
        worker_command_build(&cmd, pl->worker, p, threads);
        started = spawn_start(cmd.argv, &o, &sl->sp, &sl->r) == SPAWN_RUNNING;
    }
    if (!started)
        return -1;
    sl->busy = 1;
    sl->index = i;
    sl->alone = alone;
    sl->predicted_mib = predicted;
    sl->started_s = sl->said_s = monotonic_seconds();
    pl->running++;
    say_started(pl, sl);
    return 0;
}

/* Stops every worker still running (a failure elsewhere ends the run). */
static void stop_all(struct pool *pl)
{
    spawn_stop_requested = 1;
    for (int k = 0; k < pl->jobs; k++)
        if (pl->slots[k].busy)
            spawn_check(&pl->slots[k].sp);
}

/* Looks at every running worker once; records the finished. */
static int collect(struct pool *pl, pool_record_fn record, void *ctx)
{
    int rc = EXIT_DONE;
    for (int k = 0; k < pl->jobs; k++) {
        struct slot *sl = &pl->slots[k];
        if (!sl->busy)
            continue;
        int st = spawn_check(&sl->sp);
        if (st == SPAWN_RUNNING)
            continue;
        sl->busy = 0;
        pl->running--;
        if (st == SPAWN_INTERRUPTED) {
            rc = EXIT_INTERRUPTED;
            continue;
        }
        struct predict_measured measured = {sl->r.status, sl->r.peak_rss_mib, sl->r.baseline_rss_mib};
        predictor_learn(&pl->predictor, &pl->g->points[sl->index], &measured);
        int recorded = record(ctx, sl->index, &sl->r);
        if (recorded != EXIT_DONE && rc == EXIT_DONE)
            rc = recorded;
    }
    return rc;
}

static int next_point(const struct grid *g, const unsigned char *done, int from)
{
    while (from < g->n && done[from])
        from++;
    return from;
}

static int fill_slots(struct pool *pl, const unsigned char *done, int *next, pool_record_fn record, void *ctx)
{
    double predicted;
    int alone;
    for (int k = 0; k < pl->jobs && *next < pl->g->n; k++) {
        if (!pl->slots[k].busy && pool_refused_for_memory(pl, *next, &pl->slots[k].r)) {
            int rc = record(ctx, *next, &pl->slots[k].r);
            *next = next_point(pl->g, done, *next + 1);
            if (rc != EXIT_DONE)
                return rc;
            k--; /* the slot is still free */
            continue;
        }
        if (pl->slots[k].busy || !pool_may_start(pl, k, *next, &predicted, &alone))
            continue;
        if (start(pl, &pl->slots[k], *next, predicted, alone) != 0)
            return -1;
        *next = next_point(pl->g, done, *next + 1);
    }
    return 0;
}

static void wait_for_any(struct pool *pl)
{
    struct spawned *busy[POOL_MAX];
    int n = 0;
    for (int k = 0; k < pl->jobs; k++)
        if (pl->slots[k].busy)
            busy[n++] = &pl->slots[k].sp;
    spawn_wait_any(busy, n);
}

static int run_all(struct pool *pl, const unsigned char *done, pool_record_fn record, void *ctx)
{
    int next = next_point(pl->g, done, 0), rc = EXIT_DONE;
    while (rc == EXIT_DONE && (next < pl->g->n || pl->running > 0)) {
        int filled = spawn_stop_requested ? 0 : fill_slots(pl, done, &next, record, ctx);
        if (filled != 0) {
            int err = errno;
            stop_all(pl);
            if (filled < 0)
                fprintf(stderr, "peakfit: cannot start a worker: %s\n", strerror(err));
            return filled < 0 ? EXIT_IO : filled;
        }
        if (pl->running == 0 && spawn_stop_requested)
            return EXIT_INTERRUPTED; /* stopped before a point started: none to wait for */
        if (pl->running == 0)
            continue; /* the points so far were refused: none to wait for */
        wait_for_any(pl);
        say_still_running(pl);
        rc = collect(pl, record, ctx);
    }
    if (rc != EXIT_DONE)
        stop_all(pl);
    return rc;
}

int pool_run(const struct sweep *s, const struct grid *g, const unsigned char *done, int jobs, pool_record_fn record,
             void *ctx)
{
    struct pool *pl = calloc(1, sizeof *pl);
    if (!pl)
        return EXIT_IO;
    pl->g = g;
    pl->jobs = jobs < 1 ? 1 : jobs > POOL_MAX ? POOL_MAX : jobs;
    predictor_init(&pl->predictor, s);
    int rc = worker_binary_path(pl->worker, sizeof pl->worker) == 0 ? EXIT_DONE : EXIT_IO;
    if (rc == EXIT_DONE) {
        if (pl->jobs > 1) {
            gpu_slots_find(&pl->gpus);
            assign_cores(pl);
        }
        rc = run_all(pl, done, record, ctx);
    }
    predictor_free(&pl->predictor);
    free(pl);
    return rc;
}
