/* spawn.c: fork/exec, a pipe for the report, a deadline, and wait4. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "runner/spawn.h"

volatile sig_atomic_t spawn_stop_requested = 0;

enum { REPORT_FD = 3 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void exec_child(char *const argv[], int pipe_write)
{
    setpgid(0, 0); /* its own group, so a kill reaches any helper it starts */
    if (dup2(pipe_write, REPORT_FD) < 0)
        _exit(127);
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

/* Reads the report until the worker closes it, the deadline passes or a
 * stop is requested; returns 0, 1 (timed out) or 2 (stop requested). */
static int read_report(int fd, double deadline, struct point_result *r)
{
    struct line_reader lr = {.used = 0};
    char chunk[4096];
    for (;;) {
        if (spawn_stop_requested)
            return 2;
        double left = deadline - now_s();
        if (left <= 0)
            return 1;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int timeout_ms = left > 0.2 ? 200 : (int)(left * 1000) + 1;
        int ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno != EINTR)
            return 0;
        if (ready <= 0)
            continue;
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n <= 0)
            return 0;
        take_bytes(&lr, r, chunk, (size_t)n);
    }
}

/* Waits for the child to end by itself until the deadline; returns 0 when
 * it did, 1 when it is still running. */
static int wait_until(pid_t pid, double deadline, int *wstatus, struct rusage *ru)
{
    for (;;) {
        pid_t got = wait4(pid, wstatus, WNOHANG, ru);
        if (got == pid)
            return 0;
        if (got < 0 && errno != EINTR)
            return 0;
        if (now_s() >= deadline || spawn_stop_requested)
            return 1;
        usleep(10000);
    }
}

static void classify(struct point_result *r, int wstatus, int timed_out)
{
    const char *status;
    if (WIFEXITED(wstatus)) {
        r->exit_code = WEXITSTATUS(wstatus);
        status = r->exit_code == WORKER_EXIT_OK ? "ok" : r->exit_code == WORKER_EXIT_OOM ? "oom" : "error";
    } else {
        r->signal = WTERMSIG(wstatus);
        /* An unrequested SIGKILL is, on Linux, almost always the kernel's
         * OOM killer (or a cgroup limit). */
        status = timed_out ? "timeout" : r->signal == SIGKILL ? "killed" : "crashed";
        if (!r->error[0] && !timed_out)
            snprintf(r->error, sizeof r->error, "worker killed by signal %d (%s)", r->signal,
                     strsignal(r->signal));
    }
    if (timed_out)
        snprintf(r->error, sizeof r->error, "no result within the timeout; worker killed");
    snprintf(r->status, sizeof r->status, "%s", status);
}

int spawn_worker(char *const argv[], double timeout_s, struct point_result *r)
{
    int fds[2];
    point_result_init(r);
    if (pipe2(fds, O_CLOEXEC) != 0)
        return SPAWN_FAILED;
    double start = now_s(), deadline = start + timeout_s;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return SPAWN_FAILED;
    }
    if (pid == 0)
        exec_child(argv, fds[1]);
    close(fds[1]);
    int why = read_report(fds[0], deadline, r);
    close(fds[0]);
    int wstatus = 0;
    struct rusage ru = {0};
    int still_running = wait_until(pid, why ? now_s() : deadline, &wstatus, &ru);
    if (still_running) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        wait4(pid, &wstatus, 0, &ru);
    }
    r->wall_s = now_s() - start;
    /* Kept for comparison only: ru_maxrss survives exec, so it can be the
     * parent's peak at fork time rather than the worker's. */
    r->rusage_maxrss_mib = (double)ru.ru_maxrss / 1024;
    if (spawn_stop_requested)
        return SPAWN_INTERRUPTED;
    classify(r, wstatus, still_running);
    return SPAWN_DONE;
}
