/* fake_train: a stand-in for a user's training script, for the command
 * job tests. It reports on $PEAKFIT_REPORT_FD as the Python helper does,
 * and makes its memory in a child process (so only a measurement of the
 * whole tree sees it). usage: fake_train MIB [MODE]; MODE is one of
 *   ok           report a baseline, a step, a loss, the tensor peak (MIB)
 *   unknown-key  ...and a key no worker reports (peak_gb=1)
 *   no-baseline  ok without the baseline line
 *   long-line    a report line of 10000 bytes
 *   oom          print PyTorch's CUDA out-of-memory error, exit 1
 *   fail         print a Python traceback ending in ValueError, exit 1
 *   hang         the child sleeps for ever (a timeout)
 *   spew         write report lines and output without end
 * With $FAKE_TRAIN_PIDS set, its pid and its child's are written to
 * DIR/parent.pid and DIR/child.pid, for the tests that kill them. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static FILE *report;

static void save_pid(const char *name, pid_t pid)
{
    const char *dir = getenv("FAKE_TRAIN_PIDS");
    char path[4096];
    if (!dir)
        return;
    snprintf(path, sizeof path, "%s/%s.tmp", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d\n", (int)pid);
        fclose(f);
        char final[4096];
        snprintf(final, sizeof final, "%s/%s", dir, name);
        rename(path, final); /* whole, or not there yet */
    }
}

static long own_rss_kib(void)
{
    long size, pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld %ld", &size, &pages) != 2)
        pages = 0;
    if (f)
        fclose(f);
    return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The child: MIB touched, held a moment (or for ever), then gone. */
static void hold_memory(long mib, int forever)
{
    size_t bytes = (size_t)mib << 20;
    char *p = malloc(bytes);
    if (!p)
        _exit(3);
    memset(p, 1, bytes);
    save_pid("child.pid", getpid());
    do
        usleep(400 * 1000);
    while (forever || getenv("FAKE_TRAIN_HOLD"));
    _exit(p[bytes - 1] == 1 ? 0 : 3);
}

static void spew(void)
{
    for (;;) {
        if (report)
            fprintf(report, "step_s=0.001\n");
        printf("line of output that never ends\n");
    }
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 8;
    const char *mode = argc > 2 ? argv[2] : "ok";
    const char *fd = getenv("PEAKFIT_REPORT_FD");
    report = fd ? fdopen(atoi(fd), "w") : NULL;
    if (report)
        setvbuf(report, NULL, _IOLBF, 0);
    save_pid("parent.pid", getpid());
    if (report && strcmp(mode, "no-baseline") != 0)
        fprintf(report, "baseline_rss_kib=%ld\n", own_rss_kib());
    if (!strcmp(mode, "spew"))
        spew();
    if (!strcmp(mode, "long-line") && report) {
        fputs("loss=", report);
        for (int i = 0; i < 10000; i++)
            fputc('1', report);
        fputc('\n', report);
    }
    pid_t child = fork();
    if (child == 0)
        hold_memory(mib, !strcmp(mode, "hang"));
    int status = 0;
    waitpid(child, &status, 0);
    printf("step 1 done\n");
    fflush(stdout); /* in order with stderr, as a terminal would show them */
    if (!strcmp(mode, "oom")) {
        fprintf(stderr, "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
        return 1;
    }
    if (!strcmp(mode, "fail") || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "Traceback (most recent call last):\n  File \"train.py\", line 7, in <module>\n"
                        "ValueError: the child did not finish\n");
        return 1;
    }
    if (report) {
        fprintf(report, "step_s=0.25\nloss=1.5\ntensor_peak_bytes=%ld\n", mib << 20);
        if (!strcmp(mode, "unknown-key"))
            fprintf(report, "peak_gb=1\n");
    }
    return 0;
}
