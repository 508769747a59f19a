/* platform_darwin.c: macOS's half of the process layer (proc/platform.h):
 * libproc (proc_pid_rusage, proc_listchildpids), sysctl, Mach's VM
 * statistics and kqueue. Built by the cross-build (make macos-build) and
 * on a Mac; docs/building.md lists what a first run on a Mac must check.
 *
 * The memory figure is the footprint (ri_phys_footprint, what Activity
 * Monitor's Memory column shows): the pages a process has dirtied and
 * holds in RAM or compressed, with its share of the GPU's memory under
 * unified memory (what Metal allocates for MPS counts here): what decides
 * whether training fits on a Mac. It counts no shared clean page, so it
 * is also what a process holds alone. */
#include <errno.h>
#include <fcntl.h>
#include <libproc.h>
#include <mach-o/dyld.h>
#include <mach/mach.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/event.h>
#include <sys/resource.h>
#include <sys/sysctl.h>
#include <unistd.h>
#include "proc/cores.h"
#include "proc/platform.h"
#include "proc/proc_env.h"

/* RUSAGE_INFO_V4 (macOS 10.14) is the first with the lifetime peak. */
static int rusage_of(pid_t pid, struct rusage_info_v4 *ri)
{
    return proc_pid_rusage(pid > 0 ? pid : getpid(), RUSAGE_INFO_V4, (rusage_info_t *)ri);
}

long platform_rss_kib(pid_t pid)
{
    struct rusage_info_v4 ri;
    return rusage_of(pid, &ri) == 0 ? (long)(ri.ri_phys_footprint / 1024) : -1;
}

long platform_tree_rss_kib(pid_t pid)
{
    long kib = platform_rss_kib(pid);
    return kib > 0 ? kib : 0;
}

long platform_private_kib(pid_t pid) { return platform_tree_rss_kib(pid); }

long platform_peak_kib(void)
{
    struct rusage_info_v4 ri;
    return rusage_of(0, &ri) == 0 ? (long)(ri.ri_lifetime_max_phys_footprint / 1024) : -1;
}

/* The interval peak (ri_interval_max_phys_footprint) is reset only by a
 * private call: the lifetime peak counts from exec. */
int platform_peak_restart(void) { return -1; }

int platform_children(pid_t pid, pid_t *pids, int max)
{
    int n = proc_listchildpids(pid, pids, max * (int)sizeof *pids);
    return n < 0 ? 0 : n < max ? n : max;
}

/* KERN_PROCARGS2: argc, the path, argv, then the environment (proc_env.h);
 * only a process of the same user can be read. */
long platform_environ(pid_t pid, char *buf, size_t size)
{
    static char record[1 << 18];
    int mib[3] = {CTL_KERN, KERN_PROCARGS2, (int)pid};
    size_t n = sizeof record;
    if (sysctl(mib, 3, record, &n, NULL, 0) != 0)
        return -1;
    long start = proc_env_procargs_start(record, n);
    if (start < 0)
        return -1;
    size_t len = n - (size_t)start < size - 1 ? n - (size_t)start : size - 1;
    memcpy(buf, record + start, len);
    buf[len] = '\0';
    return (long)len;
}

long platform_memory_total_kib(void)
{
    uint64_t bytes = 0;
    size_t n = sizeof bytes;
    return sysctlbyname("hw.memsize", &bytes, &n, NULL, 0) == 0 ? (long)(bytes / 1024) : -1;
}

/* The free, inactive and purgeable pages: what the kernel can hand over
 * without swapping what is in use. */
long platform_memory_available_kib(void)
{
    vm_statistics64_data_t vm;
    mach_msg_type_number_t count = HOST_VM_INFO64_COUNT;
    if (host_statistics64(mach_host_self(), HOST_VM_INFO64, (host_info64_t)&vm, &count) != KERN_SUCCESS)
        return -1;
    uint64_t pages = (uint64_t)vm.free_count + vm.inactive_count + vm.purgeable_count;
    return (long)(pages * vm_page_size / 1024);
}

void platform_cpu_model(char *out, size_t size)
{
    size_t n = size;
    if (size == 0 || sysctlbyname("machdep.cpu.brand_string", out, &n, NULL, 0) != 0)
        snprintf(out, size, "%s", "unknown");
}

int platform_self_path(char *out, size_t size)
{
    char raw[4096];
    uint32_t n = sizeof raw;
    if (_NSGetExecutablePath(raw, &n) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    char *real = realpath(raw, NULL); /* as Linux's /proc/self/exe: no link left */
    if (!real)
        return -1;
    int fits = strlen(real) < size;
    if (fits)
        memcpy(out, real, strlen(real) + 1);
    free(real);
    if (!fits)
        errno = ENAMETOOLONG;
    return fits ? 0 : -1;
}

/* macOS has no child subreaper: a command's orphans go to launchd. */
int platform_adopt_orphans(void) { return 0; }

/* The guard: a small process forked here (before exec) that waits, with
 * kqueue, for the runner or the child to end; when the runner ends first
 * it kills the child's process group. It closes every file (the report
 * pipe's end among them), so that the runner reads the report's end when
 * the child ends. */
static void guard(pid_t parent, pid_t child)
{
    for (int fd = 0; fd < 1024; fd++)
        close(fd);
    int kq = kqueue();
    struct kevent watch[2], ended;
    EV_SET(&watch[0], parent, EVFILT_PROC, EV_ADD, NOTE_EXIT, 0, NULL);
    EV_SET(&watch[1], child, EVFILT_PROC, EV_ADD, NOTE_EXIT, 0, NULL);
    if (kq < 0 || kevent(kq, watch, 2, NULL, 0, NULL) != 0 || kill(parent, 0) != 0) {
        kill(-child, SIGKILL); /* the runner is gone already */
        _exit(0);
    }
    if (kevent(kq, NULL, 0, &ended, 1, NULL) == 1 && (pid_t)ended.ident == parent)
        kill(-child, SIGKILL);
    _exit(0);
}

int platform_die_with_parent(pid_t parent)
{
    pid_t child = getpid(), guard_pid = fork();
    if (guard_pid == 0)
        guard(parent, child);
    return guard_pid > 0 && getppid() == parent ? 0 : -1;
}

int platform_pipe_cloexec(int fds[2])
{
    if (pipe(fds) != 0)
        return -1;
    if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0)
        return 0;
    close(fds[0]);
    close(fds[1]);
    return -1;
}

int platform_cores(int *cores, int max)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int n = 0;
    for (long c = 0; c < online && n < max && c < PROC_CORES_MAX; c++)
        cores[n++] = (int)c;
    return n;
}

/* macOS has no CPU affinity: the worker's threads are told its share
 * (OPENBLAS_NUM_THREADS, --threads) and the scheduler places them. */
int platform_pin(const struct proc_cores *set)
{
    (void)set;
    return 0;
}

const char *platform_gpu_driver_dir(void) { return NULL; }
