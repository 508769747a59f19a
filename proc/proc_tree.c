/* proc_tree.c: a breadth-first walk down from a root, and the tree's
 * memory, over what proc/platform.h reads of each process (or a test's
 * reader: proc_tree.h). */
#include <signal.h>
#include <string.h>
#include "proc/platform.h"
#include "proc/proc_env.h"
#include "proc/proc_tree.h"

static int alive(pid_t pid) { return kill(pid, 0) == 0; }

static int rank_of(pid_t pid)
{
    static char env[1 << 16];
    long n = platform_environ(pid, env, sizeof env);
    return n < 0 ? -1 : proc_env_rank(env, (size_t)n);
}

static const struct proc_reader system_reader = {
    .alive = alive,
    .children = platform_children,
    .rss_kib = platform_tree_rss_kib,
    .private_kib = platform_private_kib,
    .rank = rank_of,
};

int proc_children(pid_t pid, pid_t *pids, int max) { return max > 0 ? platform_children(pid, pids, max) : 0; }

static int tree_pids(const struct proc_reader *r, pid_t root, pid_t *pids, int max)
{
    int n = 0;
    if (max < 1 || !r->alive(root))
        return 0;
    pids[n++] = root;
    for (int i = 0; i < n && n < max; i++)
        n += r->children(pids[i], pids + n, max - n);
    return n;
}

int proc_tree_pids(pid_t root, pid_t *pids, int max) { return tree_pids(&system_reader, root, pids, max); }

/* The root's RSS, and what each process below it holds alone: a forked
 * child shares its parent's pages until it writes them, and a sum of RSS
 * would count those twice. (Pages a child shares only with processes
 * outside the tree, such as a library the root never loaded, count
 * nowhere.) */
long proc_tree_rss_kib_read(const struct proc_reader *r, pid_t root)
{
    static pid_t pids[PROC_TREE_MAX]; /* 16 KiB: not on the stack of every look */
    int n = tree_pids(r, root, pids, PROC_TREE_MAX);
    long sum = n ? r->rss_kib(root) : 0;
    for (int i = 1; i < n; i++)
        sum += r->private_kib(pids[i]);
    return sum;
}

long proc_tree_rss_kib(pid_t root) { return proc_tree_rss_kib_read(&system_reader, root); }

/* The walk is breadth-first, so a rank's topmost process comes before
 * the processes it started (which inherit its RANK). */
int proc_tree_rank_rss_kib_read(const struct proc_reader *r, pid_t root, long *kib, int max)
{
    static pid_t pids[PROC_TREE_MAX];
    static char seen[PROC_TREE_MAX];
    int n = tree_pids(r, root, pids, PROC_TREE_MAX), top = 0;
    memset(seen, 0, (size_t)(max < PROC_TREE_MAX ? max : PROC_TREE_MAX));
    for (int i = 0; i < n; i++) {
        int rank = r->rank(pids[i]);
        if (rank < 0 || rank >= max || rank >= PROC_TREE_MAX)
            continue;
        kib[rank] += seen[rank] ? r->private_kib(pids[i]) : r->rss_kib(pids[i]);
        seen[rank] = 1;
        top = rank + 1 > top ? rank + 1 : top;
    }
    return top;
}

int proc_tree_rank_rss_kib(pid_t root, long *kib, int max)
{
    return proc_tree_rank_rss_kib_read(&system_reader, root, kib, max);
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
