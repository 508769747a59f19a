/* run_sweep.c: validates everything first, then runs the points not yet
 * in DIR/peaks.csv one fresh worker process at a time. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "runner/grid.h"
#include "runner/results_csv.h"
#include "runner/run_sweep.h"
#include "runner/spawn.h"
#include "sweeps/technique.h"
#include "util/exit_status.h"

struct progress {
    int total, to_run, ran;
    time_t started;
};

static void request_stop(int sig)
{
    (void)sig;
    spawn_stop_requested = 1;
}

static void install_stop_handlers(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = request_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int make_dir(const char *dir)
{
    char path[SWEEP_PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *c = path + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return -1;
        *c = '/';
    }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Held for the whole run: two runners appending to one peaks.csv would
 * each run the other's points. */
static int lock_dir(const char *dir)
{
    char path[SWEEP_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/.peakfit.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "peakfit: %s: cannot create lock file: %s\n", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "peakfit: %s: another peakfit run is writing to this directory (%s is locked)\n",
                dir, path);
        close(fd);
        return -1;
    }
    return fd;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t n;
    int rc = in && out ? 0 : -1;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
        rc = fwrite(buf, 1, n, out) == n ? 0 : -1;
    if (in) fclose(in);
    if (out && fclose(out) != 0) rc = -1;
    return rc;
}

/* argv for `peakfit worker`, in storage that lives as long as args. */
struct worker_command {
    char *argv[32];
    char text[16][SWEEP_LONG_PATH_MAX]; /* canonical paths may be long */
    int argc, n_text;
};

static void add_arg(struct worker_command *c, const char *flag, const char *value)
{
    c->argv[c->argc++] = (char *)flag;
    snprintf(c->text[c->n_text], sizeof c->text[0], "%s", value);
    c->argv[c->argc++] = c->text[c->n_text++];
}

static void add_number(struct worker_command *c, const char *flag, long long v)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", v);
    add_arg(c, flag, text);
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
    if (technique_is_lora(p->technique)) {
        char targets[64];
        lora_targets_to_list(j->lora_targets, targets, sizeof targets);
        add_number(c, "--lora-rank", j->lora_rank);
        add_arg(c, "--lora-targets", targets);
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

static int self_path(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n < 0)
        return -1;
    out[n] = '\0';
    return 0;
}

static int run_points(const struct grid *g, int fd, const unsigned char *done, const char *csv_path)
{
    char self[SWEEP_PATH_MAX];
    struct progress pr = {.total = g->n, .started = time(NULL)};
    if (self_path(self, sizeof self) != 0)
        return 1;
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
        int rc = spawn_worker(cmd.argv, p->job->timeout_s, p->job->mem_limit, &r);
        if (rc == SPAWN_INTERRUPTED) {
            fprintf(stderr, "peakfit: interrupted; the point in progress was stopped and not recorded. "
                    "%d points are in %s; run the same command again to resume.\n", g->n - pr.to_run + pr.ran, csv_path);
            return 130;
        }
        if (rc == SPAWN_FAILED) {
            fprintf(stderr, "peakfit: cannot start a worker: %s\n", strerror(errno));
            return 1;
        }
        if (results_append(fd, p, &r) != 0) {
            fprintf(stderr, "peakfit: %s: cannot append a row: %s\n", csv_path, strerror(errno));
            return 1;
        }
        pr.ran++;
        print_progress(&pr, i, p, &r);
        warn_about_blas(&r);
    }
    fprintf(stderr, "peakfit: %d points in %s\n", g->n, csv_path);
    return 0;
}

/* Keeps the sweep beside its results, for the report. */
static int keep_sweep_copy(const char *sweep_path, const char *dir)
{
    char path[SWEEP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/sweep.sweep", dir);
    if (copy_file(sweep_path, path) == 0)
        return 0;
    fprintf(stderr, "peakfit: %s: cannot write (is the directory writable, the disk full?): %s\n",
            path, strerror(errno));
    return -1;
}

/* Everything that can fail before the first point: directory, lock, CSV.
 * Returns the results fd, or -1 with the exit status in *rc. */
static int open_results(const char *sweep_path, const char *dir, const char *csv_path, const struct grid *g,
                        int *lock, unsigned char *done, int *rc)
{
    char err[1024];
    if (make_dir(dir) != 0) {
        fprintf(stderr, "peakfit: %s: cannot create output directory: %s\n", dir, strerror(errno));
        return -1;
    }
    if ((*lock = lock_dir(dir)) < 0)
        return -1;
    int fd = results_open(csv_path, g, done, err, sizeof err);
    if (fd < 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        *rc = fd == RESULTS_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_IO;
        return -1;
    }
    if (keep_sweep_copy(sweep_path, dir) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int run_sweep(const char *sweep_path, const char *out_dir)
{
    char err[1024], csv_path[SWEEP_PATH_MAX + 16];
    struct sweep *s = sweep_load(sweep_path, err, sizeof err);
    if (!s) {
        fprintf(stderr, "peakfit: %s\n", err);
        return 2;
    }
    struct grid g;
    int built = grid_build(s, &g, err, sizeof err);
    if (built != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        sweep_free(s);
        return built;
    }
    if (g.warnings)
        fputs(g.warnings, stderr);
    int lock = -1, rc = 2;
    unsigned char *done = calloc((size_t)g.n + 1, 1);
    snprintf(csv_path, sizeof csv_path, "%s/peaks.csv", out_dir);
    int fd = done ? open_results(sweep_path, out_dir, csv_path, &g, &lock, done, &rc) : -1;
    if (fd >= 0) {
        install_stop_handlers();
        rc = run_points(&g, fd, done, csv_path);
        close(fd);
    }
    if (lock >= 0)
        close(lock);
    free(done);
    grid_free(&g);
    sweep_free(s);
    return rc;
}

int run_sweep_args(int argc, char **argv, const char **sweep, const char **dir)
{
    *sweep = *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
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
    fprintf(stderr, "usage: peakfit %s SWEEP -o DIR\n", argv[0]);
    return -1;
}

int grid_main(int argc, char **argv)
{
    char err[1024];
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit grid SWEEP\n");
        return 2;
    }
    struct sweep *s = sweep_load(argv[1], err, sizeof err);
    struct grid g;
    if (!s) {
        fprintf(stderr, "peakfit: %s\n", err);
        return 2;
    }
    int rc = grid_build(s, &g, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "peakfit: %s\n", err);
    else if (g.warnings)
        fputs(g.warnings, stderr);
    for (int i = 0; rc == 0 && i < g.n; i++)
        printf("%s\n", g.points[i].id);
    char summary[128];
    grid_summary(&g, summary, sizeof summary);
    if (rc == 0)
        fprintf(stderr, "peakfit: %s: %s\n", argv[1], summary);
    grid_free(&g);
    sweep_free(s);
    return rc;
}

int run_sweep_main(int argc, char **argv)
{
    const char *sweep, *dir;
    if (run_sweep_args(argc, argv, &sweep, &dir) != 0)
        return 2;
    return run_sweep(sweep, dir);
}
