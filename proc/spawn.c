/* spawn.c: fork/exec, a pipe for the report, a deadline, a memory
 * watchdog, and wait4; for one worker or several at once. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/clock.h"
#include "proc/orphans.h"
#include "proc/platform.h"
#include "proc/proc_env.h"
#include "proc/proc_stats.h"
#include "proc/proc_tree.h"
#include "proc/spawn.h"
#include "proc/watchdog.h"
#include "sweeps/limits.h"

volatile sig_atomic_t spawn_stop_requested = 0;

enum { REPORT_FD = 3 };

/* Every worker and command started and not yet reaped: the runner's
 * children that a point owns (proc/orphans.h kills the others). */
static pid_t live[LIMIT_JOBS_MAX + 1];
static int n_live;

static void forget(pid_t pid)
{
    for (int i = 0; i < n_live; i++)
        if (live[i] == pid)
            live[i] = live[--n_live];
}

/* A command job's process: no terminal input, its stdout and stderr to
 * the runner (command_watch), the report fd named in its environment, and
 * none of the rank variables: those of the shell that started the runner
 * (under torchrun or Slurm) would make the command's own processes ranks,
 * and its report on fd 3 be thrown away for theirs (proc/rank_reports.h). */
static void command_streams(int out_write, char *report_dir)
{
    static char report_fd[] = "PEAKFIT_REPORT_FD=3";
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    /* dup2 onto itself (a runner started with stdin closed) keeps close-on-exec: cleared then. */
    if (null < 0 || (null == 0 ? fcntl(0, F_SETFD, 0) : dup2(null, 0)) < 0 || dup2(out_write, 1) < 0 ||
        dup2(out_write, 2) < 0)
        _exit(127);
    if (null > 2)
        close(null); /* stdin has it: no second descriptor for the command to inherit */
    for (int v = 0; proc_rank_variables[v]; v++)
        unsetenv(proc_rank_variables[v]);
    putenv(report_fd);
    putenv(report_dir); /* a launcher's workers: one file each (proc/rank_reports.h) */
}

static void exec_child(char *const argv[], const struct spawn_options *o, int pipe_write, pid_t parent,
                       char *spawned_at, int out_write, char *report_dir)
{
    setpgid(0, 0); /* its own group, so a kill reaches any helper it starts */
    /* A runner killed with SIGKILL takes its worker along, rather than
     * leaving it to hold memory until its next report line. */
    if (platform_die_with_parent(parent) != 0)
        _exit(127);
    if (dup2(pipe_write, REPORT_FD) < 0)
        _exit(127);
    /* Pinned before exec, so that libtorch's and OpenBLAS's thread pools
     * size themselves to these cores from the start. */
    if (o->cpus && platform_pin(o->cpus) != 0)
        _exit(127);
    for (char *const *e = o->env; e && *e; e++)
        putenv(*e);
    putenv(spawned_at); /* the worker's start_s: fork, exec and loading */
    if (o->watch) {
        command_streams(out_write, report_dir);
        /* What its children leave behind stays below it (proc/orphans.h). */
        if (orphans_adopt() != 0)
            _exit(127);
    }
    /* SIGPIPE stays ignored, as in the runner: a worker whose stderr is a
     * closed pipe (`run ... 2>&1 | head -1`) must not die of a warning,
     * and a failed write to the report pipe already ends it (EPIPE). */
    const char *path = o->path ? o->path : argv[0];
    execv(path, argv);
    fprintf(stderr, "peakfit: cannot run %s: %s\n", path, strerror(errno));
    _exit(127);
}

/* Splits what arrived into lines and hands each to the result. */
static void take_bytes(struct spawned *s, const char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n' || s->used == sizeof s->buf - 1) {
            s->buf[s->used] = '\0';
            if (s->watch)
                command_watch_report_line(s->watch, s->r, s->buf, s->used);
            else
                point_result_take_line(s->r, s->buf);
            s->used = 0;
        } else {
            s->buf[s->used++] = data[i];
        }
    }
}

enum report_end { REPORT_EOF, REPORT_TIMEOUT, REPORT_STOP, REPORT_OVER_LIMIT };

/* A command whose own process ended is done, though a process it left
 * behind may still hold the report open: waitid without reaping. */
static int command_ended(struct spawned *s)
{
    siginfo_t info = {0};
    command_watch_read_output(s->watch);
    return waitid(P_PID, (id_t)s->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == s->pid;
}

double spawn_rss_above_baseline_mib(const struct spawned *s)
{
    long kib = proc_rss_kib(s->pid);
    if (kib <= 0 || s->r->baseline_rss_mib < 0)
        return 0;
    return kib / 1024.0 - s->r->baseline_rss_mib;
}

/* Reads what is in the pipe now, without waiting: 1 at end of report
 * (the worker closed it), 0 when nothing more is there yet (or after 16
 * reads, so that a worker that never stops writing cannot keep the
 * runner from its other checks; spawn_wait_any wakes it again at once). */
static int drain(struct spawned *s)
{
    static char chunk[1 << 16];
    for (int reads = 0; reads < 16;) {
        struct pollfd p = {.fd = s->fd, .events = POLLIN};
        int ready = poll(&p, 1, 0);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return 1;
        if (ready == 0)
            return 0;
        ssize_t n = read(s->fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 1;
        take_bytes(s, chunk, (size_t)n);
        reads++;
    }
    return 0;
}

/* One look at the report: -1 while it goes on, else how it ended. What
 * the pipe holds is read before the deadline is judged: a report that
 * ended in time is never a timeout. */
static int look_at_report(struct spawned *s)
{
    if (spawn_stop_requested)
        return REPORT_STOP;
    if (watchdog_over_limit(s))
        return REPORT_OVER_LIMIT;
    if (drain(s))
        return REPORT_EOF;
    if (s->watch && command_ended(s)) {
        drain(s);
        return REPORT_EOF;
    }
    if (watchdog_past_deadline(s))
        return REPORT_TIMEOUT;
    return -1;
}

static void classify(struct spawned *s, int wstatus)
{
    struct point_result *r = s->r;
    const char *status;
    if (WIFEXITED(wstatus)) {
        r->exit_code = WEXITSTATUS(wstatus);
        status = r->exit_code == WORKER_EXIT_OK ? "ok" : r->exit_code == WORKER_EXIT_OOM ? "oom" : "error";
        if (!s->watch && r->exit_code == WORKER_EXIT_USAGE && !r->error[0]) /* said on stderr, before any report */
            snprintf(r->error, sizeof r->error, "the worker refused its options (exit status 2): its message is on "
                     "the run's stderr");
    } else {
        r->signal = WTERMSIG(wstatus);
        /* An unrequested SIGKILL is, on Linux, almost always the kernel's
         * OOM killer (or a cgroup limit). */
        status = r->signal == SIGKILL ? "killed" : "crashed";
        if (!r->error[0] && s->end == REPORT_EOF) /* else the kill was the runner's own, said below */
            snprintf(r->error, sizeof r->error, "worker killed by signal %d (%s)", r->signal,
                     strsignal(r->signal));
    }
    if (s->end == REPORT_TIMEOUT) {
        status = "timeout";
        /* Its peak until then, where it said none: what the watchdog read,
         * and never below the baseline it reported (RSS can fall back). */
        double seen = s->seen_rss_mib > r->baseline_rss_mib ? s->seen_rss_mib : r->baseline_rss_mib;
        if (r->peak_rss_mib < seen)
            r->peak_rss_mib = seen;
        /* The worker's own last error (what it was doing) is kept after ours. */
        char own[sizeof r->error];
        snprintf(own, sizeof own, "%s", r->error);
        snprintf(r->error, sizeof r->error, "no result within the timeout; worker killed%s%.*s",
                 own[0] ? "; its last error: " : "", (int)sizeof own - 64, own);
    } else if (s->end == REPORT_OVER_LIMIT) {
        status = "oom";
        /* The worker never wrote its peak: the watchdog's reading is it. */
        r->peak_rss_mib = s->seen_rss_mib;
        double base = s->watch ? command_watch_baseline_mib(s->watch, r) : r->baseline_rss_mib;
        snprintf(r->error, sizeof r->error, "RSS passed the memory limit of %.1f MiB above baseline "
                 "(read %.1f MiB); worker killed", (double)s->mem_limit / 1048576.0, s->seen_rss_mib - base);
    }
    snprintf(r->status, sizeof r->status, "%s", status);
}

/* wait4 failed (not EINTR): the worker's end is unknown, so it is an
 * error, never a status of 0 read as success. */
static void unknown_end(struct point_result *r, int wait_errno)
{
    snprintf(r->status, sizeof r->status, "error");
    snprintf(r->error, sizeof r->error, "cannot wait for the worker: %s; its result is unknown",
             strerror(wait_errno));
}

/* The worker has ended (or is killed now and reaped): its result.
 * wait_errno: 0, or why wait4 failed. */
static int finish(struct spawned *s, int wstatus, const struct rusage *ru, int wait_errno)
{
    struct point_result *r = s->r;
    r->wall_s = monotonic_seconds() - s->start;
    /* Kept for comparison only: ru_maxrss survives exec, so it can be the
     * parent's peak at fork time rather than the worker's. */
    r->rusage_maxrss_mib = (double)ru->ru_maxrss / 1024;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    forget(s->pid);
    if (s->watch) {
        proc_tree_kill(s->pid); /* what it left behind (its process group) */
        orphans_kill(live, n_live); /* and what came to the runner when it ended */
    }
    if (spawn_stop_requested) {
        if (s->watch)
            rank_reports_remove(&s->watch->ranks);
        return SPAWN_INTERRUPTED;
    }
    if (wait_errno)
        unknown_end(r, wait_errno);
    else
        classify(s, wstatus);
    if (s->watch)
        command_watch_finish(s->watch, r, ru);
    else
        snprintf(r->memory_method, sizeof r->memory_method, "vmhwm");
    return SPAWN_DONE;
}

static int kill_and_reap(struct spawned *s)
{
    int wstatus = 0;
    struct rusage ru = {0};
    if (s->watch)
        proc_tree_kill(s->pid); /* also those that left its process group */
    kill(-s->pid, SIGKILL);
    kill(s->pid, SIGKILL);
    pid_t got;
    while ((got = wait4(s->pid, &wstatus, 0, &ru)) < 0 && errno == EINTR)
        ;
    return finish(s, wstatus, &ru, got < 0 ? errno : 0);
}

int spawn_start(char *const argv[], const struct spawn_options *o, struct spawned *s, struct point_result *r)
{
    int fds[2], out[2] = {-1, -1};
    point_result_init(r);
    /* Inherited as ignored (`trap '' CHLD`, some daemons), SIGCHLD makes
     * the kernel reap workers itself and wait4 fail: it is ours to set. */
    signal(SIGCHLD, SIG_DFL);
    if (n_live == (int)(sizeof live / sizeof live[0]) || (o->watch && orphans_adopt() != 0))
        return SPAWN_FAILED;
    if (platform_pipe_cloexec(fds) != 0)
        return SPAWN_FAILED;
    struct rank_reports ranks;
    if (o->watch && (platform_pipe_cloexec(out) != 0 || rank_reports_make(&ranks, r->error, sizeof r->error) != 0)) {
        for (int i = 0; i < 2; i++)
            if (out[i] >= 0)
                close(out[i]);
        close(fds[0]);
        close(fds[1]);
        return SPAWN_FAILED;
    }
    char report_dir[PATH_MAX + 32] = "PEAKFIT_REPORT_DIR=";
    if (o->watch)
        snprintf(report_dir, sizeof report_dir, "PEAKFIT_REPORT_DIR=%s", ranks.dir);
    double start = monotonic_seconds();
    char spawned_at[64];
    snprintf(spawned_at, sizeof spawned_at, "PEAKFIT_SPAWNED_AT=%.6f", start);
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        if (o->watch)
            rank_reports_remove(&ranks);
        for (int i = 0; i < 2; i++)
            if (out[i] >= 0)
                close(out[i]);
        close(fds[0]);
        close(fds[1]);
        return SPAWN_FAILED;
    }
    if (pid == 0)
        exec_child(argv, o, fds[1], parent, spawned_at, out[1], report_dir);
    close(fds[1]);
    live[n_live++] = pid;
    if (o->watch) {
        close(out[1]);
        command_watch_init(o->watch, out[0], pid, &ranks);
    }
    *s = (struct spawned){.pid = pid, .fd = fds[0], .end = -1, .start = start, .deadline = start + o->timeout_s,
                          .last_look = start, .mem_limit = o->mem_limit, .r = r, .watch = o->watch};
    return SPAWN_RUNNING;
}

int spawn_check(struct spawned *s)
{
    if (s->end < 0) {
        s->end = look_at_report(s);
        if (s->end < 0)
            return SPAWN_RUNNING;
        close(s->fd);
        s->fd = -1;
        if (s->end != REPORT_EOF)
            return kill_and_reap(s); /* timeout, memory limit, stop */
    }
    /* The report ended: the worker is left its time to exit by itself
     * (a command, watched as before: it may have closed its report early). */
    if (s->watch && watchdog_command_over_limit(s)) {
        s->end = REPORT_OVER_LIMIT;
        return kill_and_reap(s);
    }
    if (s->watch)
        command_watch_read_output(s->watch);
    int wstatus = 0;
    struct rusage ru = {0};
    pid_t got = wait4(s->pid, &wstatus, WNOHANG, &ru);
    if (got == s->pid || (got < 0 && errno != EINTR))
        return finish(s, wstatus, &ru, got < 0 ? errno : 0);
    if (watchdog_past_deadline(s) || spawn_stop_requested) {
        s->end = REPORT_TIMEOUT;
        return kill_and_reap(s);
    }
    return SPAWN_RUNNING;
}

void spawn_wait_any(struct spawned *const *s, int n)
{
    struct pollfd p[2 * LIMIT_JOBS_MAX];
    int np = 0, ms = SPAWN_POLL_MS;
    double now = monotonic_seconds();
    for (int i = 0; i < n && i < LIMIT_JOBS_MAX; i++) {
        /* A command's output wakes the runner too: read as it comes, it
         * never waits in the pipe for the next look (nor blocks the command). */
        if (s[i]->watch && s[i]->watch->out_fd >= 0)
            p[np++] = (struct pollfd){.fd = s[i]->watch->out_fd, .events = POLLIN};
        if (s[i]->fd < 0) {
            ms = ms < 10 ? ms : 10; /* waiting for an exit: wait4 is looked at again soon */
            continue;
        }
        p[np++] = (struct pollfd){.fd = s[i]->fd, .events = POLLIN};
        double left = s[i]->deadline - now;
        int until = left > 0 ? (int)(left * 1000) + 1 : 0;
        ms = until < ms ? until : ms;
    }
    if (poll(p, (nfds_t)np, ms) < 0 && errno != EINTR)
        usleep(1000);
}

int spawn_worker(char *const argv[], double timeout_s, int64_t mem_limit, struct point_result *r)
{
    struct spawn_options o = {.timeout_s = timeout_s, .mem_limit = mem_limit};
    struct spawned s, *one = &s;
    if (spawn_start(argv, &o, &s, r) != SPAWN_RUNNING)
        return SPAWN_FAILED;
    int rc;
    while ((rc = spawn_check(&s)) == SPAWN_RUNNING)
        spawn_wait_any(&one, 1);
    return rc;
}
