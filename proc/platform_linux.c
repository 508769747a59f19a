/* platform_linux.c: Linux's half of the process layer (proc/platform.h):
 * /proc's files, prctl and sched_setaffinity. Children come from
 * /proc/PID/task/TID/children (a thread can fork too, so every task is
 * read); a kernel without that file (CONFIG_PROC_CHILDREN off) is walked
 * by the parent pid in each /proc/PID/stat instead. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "proc/cores.h"
#include "proc/platform.h"
#include "proc/platform_linux.h"

/* ---- Parsing a file's text ------------------------------------------------ */

long linux_field_kib(const char *text, const char *field)
{
    long kib = -1;
    size_t n = strlen(field);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            kib = strtol(line + n + 1, NULL, 10);
    return kib;
}

int linux_stat_parent(const char *text)
{
    const char *end = strrchr(text, ')');
    int ppid;
    return end && sscanf(end + 1, " %*c %d", &ppid) == 1 ? ppid : -1;
}

long linux_private_kib(const char *text)
{
    long kib = 0, part;
    int found = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (sscanf(line, "Private_Clean: %ld kB", &part) == 1 || sscanf(line, "Private_Dirty: %ld kB", &part) == 1) {
            kib += part;
            found++;
        }
    return found == 2 ? kib : -1;
}

int linux_cpu_model(const char *text, char *out, size_t size)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *colon = strchr(line, ':'), *end = strchr(line, '\n');
        if (colon && (!end || colon < end) && strncmp(line, "model name", 10) == 0) {
            colon += 1 + (colon[1] == ' ');
            int len = (int)((end ? end : colon + strlen(colon)) - colon);
            snprintf(out, size, "%.*s", len, colon);
            return 0;
        }
    }
    return -1;
}

/* ---- Reading a file -------------------------------------------------------- */

/* The start of a file (at most size - 1 bytes) into buf, NUL-ended; its
 * length, or -1 when it cannot be opened. */
static long read_text(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

static long status_kib(pid_t pid, const char *field)
{
    char path[64], text[8192];
    if (pid > 0)
        snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    else
        snprintf(path, sizeof path, "/proc/self/status");
    return read_text(path, text, sizeof text) < 0 ? -1 : linux_field_kib(text, field);
}

long platform_rss_kib(pid_t pid) { return status_kib(pid, "VmRSS"); }
long platform_peak_kib(void) { return status_kib(0, "VmHWM"); }

/* Writing 5 to clear_refs starts VmHWM afresh from the current RSS (Linux >= 4.0). */
int platform_peak_restart(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return -1;
    int ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static long meminfo_kib(const char *field)
{
    char text[8192];
    return read_text("/proc/meminfo", text, sizeof text) < 0 ? -1 : linux_field_kib(text, field);
}

long platform_memory_total_kib(void) { return meminfo_kib("MemTotal"); }
long platform_memory_available_kib(void) { return meminfo_kib("MemAvailable"); }

/* /proc/cpuinfo's model name, else the machine (uname's: an arm64 CPU has
 * no model name there). */
void platform_cpu_model(char *out, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    struct utsname u;
    snprintf(out, size, "%s", uname(&u) == 0 ? u.machine : "unknown");
    while (f && fgets(line, sizeof line, f))
        if (linux_cpu_model(line, out, size) == 0)
            break;
    if (f)
        fclose(f);
}

/* ---- The process tree ------------------------------------------------------- */

/* Resident pages in /proc/PID/statm, in KiB; 0 when gone. */
long platform_tree_rss_kib(pid_t pid)
{
    char path[64];
    long size, resident = 0;
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2)
        resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

long platform_private_kib(pid_t pid)
{
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    long kib = read_text(path, text, sizeof text) < 0 ? -1 : linux_private_kib(text);
    return kib >= 0 ? kib : platform_tree_rss_kib(pid);
}

/* Appends pid's children from its tasks' children files; -1 when the
 * kernel has no such file. */
static int children_from_tasks(pid_t pid, pid_t *pids, int *n, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks)
        return 0; /* gone meanwhile */
    int found_file = 0;
    for (struct dirent *t; (t = readdir(tasks)) && *n < max;) {
        if (!isdigit((unsigned char)t->d_name[0]))
            continue;
        char file[128];
        snprintf(file, sizeof file, "/proc/%d/task/%.16s/children", (int)pid, t->d_name);
        FILE *f = fopen(file, "r");
        if (!f)
            continue;
        found_file = 1;
        for (int child; *n < max && fscanf(f, "%d", &child) == 1;)
            pids[(*n)++] = child;
        fclose(f);
    }
    closedir(tasks);
    return found_file || access("/proc/self/task", F_OK) != 0 ? 0 : -1;
}

/* The parent pid in /proc/PID/stat, or -1. */
static pid_t parent_of(const char *pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%.16s/stat", pid);
    return read_text(path, buf, sizeof buf) < 0 ? -1 : linux_stat_parent(buf);
}

/* Appends pid's children by reading every process's parent. */
static void children_from_scan(pid_t pid, pid_t *pids, int *n, int max)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return;
    for (struct dirent *e; (e = readdir(proc)) && *n < max;)
        if (isdigit((unsigned char)e->d_name[0]) && parent_of(e->d_name) == pid)
            pids[(*n)++] = atoi(e->d_name);
    closedir(proc);
}

/* From its tasks' children files, or by the scan where the kernel has
 * none or PEAKFIT_PROC_TREE=scan asks for it (so that the tests check that
 * walk here too). */
int platform_children(pid_t pid, pid_t *pids, int max)
{
    const char *how = getenv("PEAKFIT_PROC_TREE");
    int n = 0;
    if ((how && strcmp(how, "scan") == 0) || children_from_tasks(pid, pids, &n, max) != 0)
        children_from_scan(pid, pids, &n, max);
    return n;
}

long platform_environ(pid_t pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    return read_text(path, buf, size);
}

/* ---- Starting processes ----------------------------------------------------- */

int platform_self_path(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size);
    if (n < 0)
        return -1;
    if ((size_t)n >= size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    out[n] = '\0';
    return 0;
}

/* Linux 3.4 and later (PR_SET_CHILD_SUBREAPER). */
int platform_adopt_orphans(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

int platform_die_with_parent(pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return getppid() == parent ? 0 : -1;
}

int platform_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int platform_cores(int *cores, int max)
{
    cpu_set_t mine;
    int n = 0;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0)
        CPU_ZERO(&mine);
    for (int c = 0; c < CPU_SETSIZE && c < PROC_CORES_MAX && n < max; c++)
        if (CPU_ISSET(c, &mine))
            cores[n++] = c;
    return n;
}

int platform_pin(const struct proc_cores *set)
{
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    for (int c = 0; c < CPU_SETSIZE && c < PROC_CORES_MAX; c++)
        if (proc_cores_has(set, c))
            CPU_SET(c, &cpus);
    return sched_setaffinity(0, sizeof cpus, &cpus);
}

const char *platform_gpu_driver_dir(void) { return "/proc/driver/nvidia/gpus"; }
