/* proc_tree.h: a process and every process below it (proc/platform.h
 * finds them): their memory together, and a kill that reaches each of them
 * (also those that left its process group). */
#ifndef PEAKFIT_PROC_TREE_H
#define PEAKFIT_PROC_TREE_H
#include <sys/types.h>

enum { PROC_TREE_MAX = 4096 }; /* processes looked at below one root */

/* The pids of pid's children, at most max; the count. */
int proc_children(pid_t pid, pid_t *pids, int max);
/* The pids of root and its descendants (root first), at most max; the count. */
int proc_tree_pids(pid_t root, pid_t *pids, int max);
/* Their resident memory together, in KiB (0 when root is gone): root's
 * RSS and the private pages of each process below it, so that a page a
 * forked child still shares with its parent counts once. */
long proc_tree_rss_kib(pid_t root);
/* The same, split by rank: kib[R] is the memory of the processes whose
 * environment holds a rank variable = R (a launcher's workers), counted as
 * above: the rank's topmost process's RSS and what each below it holds
 * alone. Ranks at or above max are not counted. Returns 1 + the highest
 * rank seen (0: none); kib is not cleared first. */
int proc_tree_rank_rss_kib(pid_t root, long *kib, int max);
/* What the bookkeeping above reads of each process: the system's (the
 * functions above), or a test's made-up tree (tests/proc_tree_test.c). */
struct proc_reader {
    int (*alive)(pid_t pid);
    int (*children)(pid_t pid, pid_t *pids, int max); /* written into pids; the count */
    long (*rss_kib)(pid_t pid);
    long (*private_kib)(pid_t pid);
    int (*rank)(pid_t pid); /* its RANK=N, or -1 */
};
long proc_tree_rss_kib_read(const struct proc_reader *r, pid_t root);
int proc_tree_rank_rss_kib_read(const struct proc_reader *r, pid_t root, long *kib, int max);
/* SIGKILL to root's process group and to every process of its tree. */
void proc_tree_kill(pid_t root);
#endif
