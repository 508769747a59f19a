/* proc_tree.c: a breadth-first walk down from a root. Children come from
 * /proc/PID/task/TID/children (a thread can fork too, so every task is
 * read); a kernel without that file (CONFIG_PROC_CHILDREN off) is walked
 * by the parent pid in each /proc/PID/stat instead. */
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc/proc_tree.h"

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

/* The parent pid in /proc/PID/stat (after the ")" that ends its name), or -1. */
static pid_t parent_of(const char *pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%.16s/stat", pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char *end = strrchr(buf, ')');
    int ppid;
    return end && sscanf(end + 1, " %*c %d", &ppid) == 1 ? ppid : -1;
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

/* Appends pid's children, from its tasks' children files, or by the scan
 * where the kernel has none or PEAKFIT_PROC_TREE=scan asks for it (so that
 * the tests check that walk here too). */
static void children_of(pid_t pid, pid_t *pids, int *n, int max)
{
    const char *how = getenv("PEAKFIT_PROC_TREE");
    if ((how && strcmp(how, "scan") == 0) || children_from_tasks(pid, pids, n, max) != 0)
        children_from_scan(pid, pids, n, max);
}

int proc_children(pid_t pid, pid_t *pids, int max)
{
    int n = 0;
    children_of(pid, pids, &n, max);
    return n;
}

int proc_tree_pids(pid_t root, pid_t *pids, int max)
{
    int n = 0;
    if (max < 1 || kill(root, 0) != 0)
        return 0;
    pids[n++] = root;
    for (int i = 0; i < n && n < max; i++)
        children_of(pids[i], pids, &n, max);
    return n;
}

/* Resident pages in /proc/PID/statm, in KiB; 0 when gone. */
static long rss_kib(pid_t pid)
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

/* The pages it holds alone (Private_Clean + Private_Dirty of
 * /proc/PID/smaps_rollup), in KiB; its RSS where that cannot be read. */
static long private_kib(pid_t pid)
{
    char path[64], line[256];
    long kib = 0, part;
    int found = 0;
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Private_Clean: %ld kB", &part) == 1 || sscanf(line, "Private_Dirty: %ld kB", &part) == 1) {
            kib += part;
            found++;
        }
    if (f)
        fclose(f);
    return found == 2 ? kib : rss_kib(pid);
}

/* The root's RSS, and what each process below it holds alone: a forked
 * child shares its parent's pages until it writes them, and a sum of RSS
 * would count those twice. (Pages a child shares only with processes
 * outside the tree, such as a library the root never loaded, count
 * nowhere.) */
long proc_tree_rss_kib(pid_t root)
{
    static pid_t pids[PROC_TREE_MAX]; /* 16 KiB: not on the stack of every look */
    int n = proc_tree_pids(root, pids, PROC_TREE_MAX);
    long sum = n ? rss_kib(root) : 0;
    for (int i = 1; i < n; i++)
        sum += private_kib(pids[i]);
    return sum;
}

const char *const proc_rank_variables[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", NULL};

/* Which of proc_rank_variables an environment entry sets ("RANK=3"): its
 * index, or -1. */
static int rank_variable_of(const char *entry)
{
    for (int v = 0; proc_rank_variables[v]; v++) {
        size_t n = strlen(proc_rank_variables[v]);
        if (strncmp(entry, proc_rank_variables[v], n) == 0 && entry[n] == '=')
            return v;
    }
    return -1;
}

/* The rank of /proc/PID/environ (the first of proc_rank_variables it
 * holds), or -1 (none, or not a rank). */
static int rank_of(pid_t pid)
{
    static char env[1 << 16];
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(env, 1, sizeof env - 1, f);
    fclose(f);
    env[n] = '\0';
    const char *value = NULL;
    int best = -1;
    for (size_t i = 0; i < n; i += strlen(env + i) + 1) {
        int v = rank_variable_of(env + i);
        if (v >= 0 && (best < 0 || v < best))
            best = v, value = env + i + strlen(proc_rank_variables[v]) + 1;
    }
    char *end = NULL;
    long rank = value && isdigit((unsigned char)value[0]) ? strtol(value, &end, 10) : -1;
    return rank >= 0 && *end == '\0' && rank < 1 << 20 ? (int)rank : -1;
}

/* The walk is breadth-first, so a rank's topmost process comes before
 * the processes it started (which inherit its RANK). */
int proc_tree_rank_rss_kib(pid_t root, long *kib, int max)
{
    static pid_t pids[PROC_TREE_MAX];
    static char seen[PROC_TREE_MAX];
    int n = proc_tree_pids(root, pids, PROC_TREE_MAX), top = 0;
    memset(seen, 0, (size_t)(max < PROC_TREE_MAX ? max : PROC_TREE_MAX));
    for (int i = 0; i < n; i++) {
        int rank = rank_of(pids[i]);
        if (rank < 0 || rank >= max || rank >= PROC_TREE_MAX)
            continue;
        kib[rank] += seen[rank] ? private_kib(pids[i]) : rss_kib(pids[i]);
        seen[rank] = 1;
        top = rank + 1 > top ? rank + 1 : top;
    }
    return top;
}

/* The tree is read before anything dies: a killed parent's children go
 * to init at once, out of reach of the walk. */
void proc_tree_kill(pid_t root)
{
    static pid_t pids[PROC_TREE_MAX];
    int n = proc_tree_pids(root, pids, PROC_TREE_MAX);
    kill(-root, SIGKILL);
    for (int i = 0; i < n; i++)
        kill(pids[i], SIGKILL);
}
