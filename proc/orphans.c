/* orphans.c: the runner's children that no point owns any more. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "proc/orphans.h"
#include "proc/platform.h"
#include "proc/proc_tree.h"

int orphans_adopt(void) { return platform_adopt_orphans(); }

static int kept(pid_t pid, const pid_t *keep, int n)
{
    for (int i = 0; i < n; i++)
        if (keep[i] == pid)
            return 1;
    return 0;
}

/* A SIGKILLed process ends at once unless it is in the kernel (a disk
 * read): each is waited for a moment, and one still there is reaped at
 * the next point's end. */
static void reap(pid_t pid)
{
    for (int tries = 0; tries < 50; tries++) {
        pid_t got = waitpid(pid, NULL, WNOHANG);
        if (got != 0)
            return; /* reaped, or not ours any more */
        usleep(2000);
    }
}

void orphans_kill(const pid_t *keep, int n)
{
    static pid_t children[PROC_TREE_MAX];
    int found = proc_children(getpid(), children, PROC_TREE_MAX);
    for (int i = 0; i < found; i++)
        if (!kept(children[i], keep, n))
            proc_tree_kill(children[i]);
    for (int i = 0; i < found; i++)
        if (!kept(children[i], keep, n))
            reap(children[i]);
}
