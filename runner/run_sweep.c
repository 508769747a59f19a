/* run_sweep.c: validates everything first, then runs the points not yet
 * in DIR/peaks.csv one fresh worker process at a time. */
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
#include "runner/spawn.h"
#include "sweeps/attention.h"
#include "sweeps/device.h"
#include "sweeps/technique.h"
#include "util/exit_status.h"

struct progress {
    int total, to_run, ran, ok;
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

/* argv for `peakfit worker`. Strings point into the grid (never copied,
 * so never cut); numbers and the LoRA list are written into text. */
struct worker_command {
    char *argv[32];
    char text[16][64];
    int argc, n_text;
};

static void add_arg(struct worker_command *c, const char *flag, const char *value)
{
    c->argv[c->argc++] = (char *)flag;
    c->argv[c->argc++] = (char *)value;
}

static void add_text(struct worker_command *c, const char *flag, const char *value)
{
    snprintf(c->text[c->n_text], sizeof c->text[0], "%s", value);
    add_arg(c, flag, c->text[c->n_text++]);
}

static void add_number(struct worker_command *c, const char *flag, long long v)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", v);
    add_text(c, flag, text);
}

static void build_command(struct worker_command *c, const char *self, const struct grid_point *p)
{
    const struct sweep_job *j = p->job;
    memset(c, 0, sizeof *c);
    c->argv[c->argc++] = (char *)self;
    c->argv[c->argc++] = "worker";
    add_arg(c, "--model", p->model_source);
    add_arg(c, "--device", p->device);
    add_arg(c, "--technique", technique_name(p->technique));
    add_arg(c, "--attention", attention_name(p->attention));
    if (technique_runs_steps(p->technique)) {
        add_number(c, "--batch", p->batch);
        add_number(c, "--seq-len", p->seq_len);
    }
    add_number(c, "--steps", j->steps);
    add_number(c, "--seed", j->seed);
    add_number(c, "--threads", j->threads);
    add_number(c, "--report-fd", 3);
    if (j->weights[0])
        add_arg(c, "--weights", j->weights);
    if (j->mem_limit > 0 && device_is_gpu(p->device))
        add_number(c, "--mem-limit", (long long)j->mem_limit); /* the device's allocator enforces it */
    if (technique_is_lora(p->technique)) {
        char targets[64];
        lora_targets_to_list(j->lora_targets, targets, sizeof targets);
        add_number(c, "--lora-rank", j->lora_rank);
        add_text(c, "--lora-targets", targets);
    }
    c->argv[c->argc] = NULL;
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

/* This binary, to exec as each worker. A result that fills the buffer
 * may have been cut: refused rather than exec'ing a shorter path. */
static int self_path(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "peakfit: cannot find its own binary to run workers (/proc/self/exe): %s\n",
                n < 0 ? strerror(errno) : "path longer than PATH_MAX");
        return -1;
    }
    out[n] = '\0';
    return 0;
}

/* Every point this run measured failed (none before it in the file):
 * exit non-zero, so a script does not take an empty fit for a result. */
static int nothing_succeeded(const struct progress *pr, const char *csv_path)
{
    int done_before = pr->total - pr->to_run;
    if (pr->ran == 0 || pr->ok > 0 || done_before > 0)
        return 0;
    fprintf(stderr, "peakfit: no point succeeded (%d failed: see the status and error columns of %s)\n",
            pr->ran, csv_path);
    return 1;
}

static int run_points(const struct grid *g, int fd, const unsigned char *done, const char *csv_path)
{
    char self[PATH_MAX];
    struct progress pr = {.total = g->n, .started = time(NULL)};
    if (self_path(self, sizeof self) != 0)
        return EXIT_IO;
    for (int i = 0; i < g->n; i++)
        pr.to_run += !done[i];
    if (pr.to_run < g->n)
        fprintf(stderr, "peakfit: resuming: %d of %d points already in %s\n", g->n - pr.to_run, g->n, csv_path);
    for (int i = 0; i < g->n; i++) {
        const struct grid_point *p = &g->points[i];
        if (done[i])
            continue;
        struct worker_command cmd;
        struct point_result r;
        build_command(&cmd, self, p);
        /* On a GPU the worker caps its device's allocator; RSS is not the limit. */
        int64_t rss_limit = device_is_gpu(p->device) ? 0 : p->job->mem_limit;
        int rc = spawn_worker(cmd.argv, p->job->timeout_s, rss_limit, &r);
        if (rc == SPAWN_INTERRUPTED) {
            fprintf(stderr, "peakfit: interrupted; the point in progress was stopped and not recorded. "
                    "%d points are in %s; run the same command again to resume.\n", g->n - pr.to_run + pr.ran, csv_path);
            return EXIT_INTERRUPTED;
        }
        if (rc == SPAWN_FAILED) {
            fprintf(stderr, "peakfit: cannot start a worker: %s\n", strerror(errno));
            return EXIT_IO;
        }
        if (results_append(fd, p, &r) != 0) {
            fprintf(stderr, "peakfit: %s: cannot append a row: %s\n", csv_path, strerror(errno));
            return EXIT_IO;
        }
        pr.ran++;
        pr.ok += strcmp(r.status, "ok") == 0;
        print_progress(&pr, i, p, &r);
        warn_about_blas(&r);
    }
    fprintf(stderr, "peakfit: %d points in %s\n", g->n, csv_path);
    return nothing_succeeded(&pr, csv_path) ? EXIT_NO_RESULT : EXIT_DONE;
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

int run_sweep(const char *sweep_path, const char *out_dir)
{
    char csv_path[PATH_MAX];
    install_stop_handlers(); /* a stop before the first point ends the run at it */
    struct grid g;
    int rc;
    struct sweep *s = grid_cmd_load(sweep_path, &g, &rc);
    if (!s)
        return rc;
    struct run_locks locks = {-1, -1};
    int fd = -1;
    unsigned char *done = calloc((size_t)g.n + 1, 1);
    snprintf(csv_path, sizeof csv_path, "%s/peaks.csv", out_dir); /* fits: out_dir_prepare checks */
    rc = done ? open_results(sweep_path, out_dir, csv_path, &g, &locks, &fd, done) : EXIT_IO;
    if (rc == EXIT_DONE)
        rc = run_points(&g, fd, done, csv_path);
    if (fd >= 0)
        close(fd);
    release_locks(&locks);
    free(done);
    grid_free(&g);
    sweep_free(s);
    return rc;
}

static int is_output_flag(const char *arg) { return strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0; }

int run_sweep_args(int argc, char **argv, const char **sweep, const char **dir)
{
    *sweep = *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (is_output_flag(argv[i]) && i + 1 < argc)
            *dir = argv[++i];
        else if (!*sweep && argv[i][0] != '-')
            *sweep = argv[i];
        else {
            fprintf(stderr, "peakfit: unexpected argument %s\n", argv[i]);
            return -1;
        }
    }
    if (*sweep && *dir)
        return 0;
    fprintf(stderr, "usage: peakfit %s SWEEP -o|--output DIR\n", argv[0]);
    return -1;
}

int run_sweep_main(int argc, char **argv)
{
    const char *sweep, *dir;
    if (run_sweep_args(argc, argv, &sweep, &dir) != 0)
        return EXIT_BAD_INPUT;
    return run_sweep(sweep, dir);
}
