/* spawn.c: fork/exec, a pipe for the report, a deadline, and wait4. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/clock.h"
#include "runner/proc_stats.h"
#include "runner/spawn.h"

volatile sig_atomic_t spawn_stop_requested = 0;

enum { REPORT_FD = 3 };

static void exec_child(char *const argv[], int pipe_write, pid_t parent)
{
    setpgid(0, 0); /* its own group, so a kill reaches any helper it starts */
    /* A runner killed with SIGKILL takes its worker along, rather than
     * leaving it to hold memory until its next report line. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    if (dup2(pipe_write, REPORT_FD) < 0)
        _exit(127);
    /* SIGPIPE stays ignored, as in the runner: a worker whose stderr is a
     * closed pipe (`run ... 2>&1 | head -1`) must not die of a warning,
     * and a failed write to the report pipe already ends it (EPIPE). */
    execv(argv[0], argv);
    fprintf(stderr, "peakfit: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Splits what arrived into lines and hands each to the result. */
struct line_reader {
    char buf[8192];
    size_t used;
};

static void take_bytes(struct line_reader *lr, struct point_result *r, const char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n' || lr->used == sizeof lr->buf - 1) {
            lr->buf[lr->used] = '\0';
            point_result_take_line(r, lr->buf);
            lr->used = 0;
        } else {
            lr->buf[lr->used++] = data[i];
        }
    }
}

enum report_end { REPORT_EOF, REPORT_TIMEOUT, REPORT_STOP, REPORT_OVER_LIMIT };

struct watch {
    pid_t pid;
    double deadline;
    int64_t mem_limit;
    double seen_rss_mib; /* the largest RSS the watchdog read */
    double last_look;    /* when the runner last checked the deadline */
};

enum { POLL_MS = 20 };
/* A gap this much longer than one poll between two looks means the runner
 * itself did not run: it was stopped (SIGSTOP, Ctrl-Z) or starved. */
#define STALL_S 0.5

/* Has the worker had its time? The deadline is on the runner's watching
 * clock: time in which the runner did not run (a gap between looks far
 * longer than a poll) is added to it. The worker runs on meanwhile (it has
 * its own process group, so Ctrl-Z does not stop it), and a point that
 * finished while its runner was stopped must not be judged by a clock
 * nobody was watching. The worker's CPU time would not do: a hung worker
 * uses none. */
static int past_deadline(struct watch *w)
{
    double now = monotonic_seconds(), gap = now - w->last_look;
    if (gap > STALL_S)
        w->deadline += gap - POLL_MS / 1000.0;
    w->last_look = now;
    return now >= w->deadline;
}

/* The watchdog's sample: the worker's RSS over its baseline, past the limit?
 * Sampled every 20 ms, so a fast-growing worker can overshoot by the
 * memory it touches in that time. */
static int over_limit(struct watch *w, const struct point_result *r)
{
    if (w->mem_limit <= 0 || r->baseline_rss_mib < 0)
        return 0;
    long kib = proc_status_kib_of(w->pid, "VmRSS");
    if (kib > 0 && kib / 1024.0 > w->seen_rss_mib)
        w->seen_rss_mib = kib / 1024.0;
    return kib > 0 && (kib / 1024.0 - r->baseline_rss_mib) * 1048576.0 > (double)w->mem_limit;
}

/* Reads what is in the pipe now, without waiting: 1 at end of report
 * (the worker closed it), 0 when nothing more is there yet (or after a
 * pipe's worth, so that a worker that never stops writing cannot keep the
 * runner from its other checks). */
static int drain(int fd, struct line_reader *lr, struct point_result *r)
{
    char chunk[4096];
    for (int reads = 0; reads < 16;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int ready = poll(&p, 1, 0);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return 1;
        if (ready == 0)
            return 0;
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 1;
        take_bytes(lr, r, chunk, (size_t)n);
        reads++;
    }
    return 0;
}

/* Reads the report until the worker closes it, or the deadline passes, a
 * stop is requested or the memory limit is crossed. What the pipe holds
 * is read before the deadline is judged: a report that ended in time is
 * never a timeout. */
static enum report_end read_report(int fd, struct watch *w, struct point_result *r)
{
    struct line_reader lr = {.used = 0};
    for (;;) {
        if (spawn_stop_requested)
            return REPORT_STOP;
        if (over_limit(w, r))
            return REPORT_OVER_LIMIT;
        if (drain(fd, &lr, r))
            return REPORT_EOF;
        if (past_deadline(w))
            return REPORT_TIMEOUT;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        double left = w->deadline - w->last_look;
        poll(&p, 1, left > POLL_MS / 1000.0 ? POLL_MS : (int)(left * 1000) + 1);
    }
}

/* Waits for the child to end by itself until the deadline; returns 0 when
 * it did, 1 when it is still running. */
static int wait_until(pid_t pid, struct watch *w, int *wstatus, struct rusage *ru)
{
    for (;;) {
        pid_t got = wait4(pid, wstatus, WNOHANG, ru);
        if (got == pid)
            return 0;
        if (got < 0 && errno != EINTR)
            return 0;
        if (past_deadline(w) || spawn_stop_requested)
            return 1;
        usleep(10000);
    }
}

static void classify(struct point_result *r, int wstatus, enum report_end end, const struct watch *w)
{
    const char *status;
    if (WIFEXITED(wstatus)) {
        r->exit_code = WEXITSTATUS(wstatus);
        status = r->exit_code == WORKER_EXIT_OK ? "ok" : r->exit_code == WORKER_EXIT_OOM ? "oom" : "error";
    } else {
        r->signal = WTERMSIG(wstatus);
        /* An unrequested SIGKILL is, on Linux, almost always the kernel's
         * OOM killer (or a cgroup limit). */
        status = r->signal == SIGKILL ? "killed" : "crashed";
        if (!r->error[0])
            snprintf(r->error, sizeof r->error, "worker killed by signal %d (%s)", r->signal,
                     strsignal(r->signal));
    }
    if (end == REPORT_TIMEOUT) {
        status = "timeout";
        snprintf(r->error, sizeof r->error, "no result within the timeout; worker killed");
    } else if (end == REPORT_OVER_LIMIT) {
        status = "oom";
        /* The worker never wrote its peak: the watchdog's reading is it. */
        r->peak_rss_mib = w->seen_rss_mib;
        snprintf(r->error, sizeof r->error, "RSS passed the memory limit of %.1f MiB above baseline "
                 "(read %.1f MiB); worker killed", (double)w->mem_limit / 1048576.0,
                 w->seen_rss_mib - r->baseline_rss_mib);
    }
    snprintf(r->status, sizeof r->status, "%s", status);
}

int spawn_worker(char *const argv[], double timeout_s, int64_t mem_limit, struct point_result *r)
{
    int fds[2];
    point_result_init(r);
    if (pipe2(fds, O_CLOEXEC) != 0)
        return SPAWN_FAILED;
    double start = monotonic_seconds();
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return SPAWN_FAILED;
    }
    if (pid == 0)
        exec_child(argv, fds[1], parent);
    close(fds[1]);
    struct watch w = {pid, start + timeout_s, mem_limit, 0, start};
    enum report_end end = read_report(fds[0], &w, r);
    close(fds[0]);
    int wstatus = 0;
    struct rusage ru = {0};
    if (end != REPORT_EOF)
        w.deadline = monotonic_seconds(); /* to be killed now */
    if (wait_until(pid, &w, &wstatus, &ru)) {
        if (end == REPORT_EOF)
            end = REPORT_TIMEOUT;
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        wait4(pid, &wstatus, 0, &ru);
    }
    r->wall_s = monotonic_seconds() - start;
    /* Kept for comparison only: ru_maxrss survives exec, so it can be the
     * parent's peak at fork time rather than the worker's. */
    r->rusage_maxrss_mib = (double)ru.ru_maxrss / 1024;
    if (spawn_stop_requested)
        return SPAWN_INTERRUPTED;
    classify(r, wstatus, end, &w);
    return SPAWN_DONE;
}
