/* The process tree's memory bookkeeping, on a made-up tree read through a
 * test's reader (proc_tree.h): the root's RSS plus what each process below
 * holds alone; split by rank, each rank's topmost process's RSS plus what
 * each below it holds alone; a root that is gone counts nothing. The
 * numbers are the made-up tree's, so any system's walk adds them the same. */
#include <string.h>
#include "proc/proc_tree.h"
#include "tests/check.h"

/* root 100 -> 101 (RANK=0) -> 103 (RANK=0, inherited)
 *          -> 102 (RANK=1)
 *          -> 104 (no rank) */
struct fake { pid_t pid, parent; long rss, private_kib; int rank; };
static const struct fake tree[] = {
    {100, 0, 1000, 900, -1}, {101, 100, 700, 200, 0}, {102, 100, 800, 300, 1},
    {103, 101, 400, 50, 0}, {104, 100, 90, 10, -1},
};
enum { N_FAKE = sizeof tree / sizeof tree[0] };
static int root_alive = 1;

static const struct fake *find(pid_t pid)
{
    for (int i = 0; i < N_FAKE; i++)
        if (tree[i].pid == pid)
            return &tree[i];
    return NULL;
}

static int alive(pid_t pid) { return find(pid) && (pid != 100 || root_alive); }
static int children(pid_t pid, pid_t *pids, int max)
{
    int n = 0;
    for (int i = 0; i < N_FAKE && n < max; i++)
        if (tree[i].parent == pid)
            pids[n++] = tree[i].pid;
    return n;
}
static long rss_kib(pid_t pid) { return find(pid) ? find(pid)->rss : 0; }
static long private_kib(pid_t pid) { return find(pid) ? find(pid)->private_kib : 0; }
static int rank(pid_t pid) { return find(pid) ? find(pid)->rank : -1; }

static const struct proc_reader reader = {alive, children, rss_kib, private_kib, rank};

int main(void)
{
    long total = proc_tree_rss_kib_read(&reader, 100);
    CHECK(total == 1000 + 200 + 300 + 50 + 10, "the root's RSS and what each below holds alone: %ld", total);
    CHECK(proc_tree_rss_kib_read(&reader, 101) == 700 + 50, "a subtree: %ld", proc_tree_rss_kib_read(&reader, 101));

    long kib[4] = {0};
    int top = proc_tree_rank_rss_kib_read(&reader, 100, kib, 4);
    CHECK(top == 2, "ranks seen: %d", top);
    CHECK(kib[0] == 700 + 50, "rank 0: its topmost process's RSS and what the one below holds alone: %ld", kib[0]);
    CHECK(kib[1] == 800, "rank 1: %ld", kib[1]);
    CHECK(kib[2] == 0 && kib[3] == 0, "no more ranks: %ld %ld", kib[2], kib[3]);

    long one[1] = {0};
    CHECK(proc_tree_rank_rss_kib_read(&reader, 100, one, 1) == 1 && one[0] == 750, "ranks at or above max are not counted");

    root_alive = 0;
    CHECK(proc_tree_rss_kib_read(&reader, 100) == 0, "a root that is gone: nothing");
    memset(kib, 0, sizeof kib);
    CHECK(proc_tree_rank_rss_kib_read(&reader, 100, kib, 4) == 0 && kib[0] == 0, "no ranks under a root that is gone");
    CHECK_DONE();
}
