/* watchdog.c: judges a watched worker at each look: past its time (on the
 * runner's watching clock), or past its memory limit (its RSS above the
 * baseline it reported; a command job's whole process tree). */
#include "proc/proc_stats.h"
#include "proc/watchdog.h"
#include "util/clock.h"

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
int watchdog_past_deadline(struct spawned *s)
{
    double now = monotonic_seconds(), gap = now - s->last_look;
    if (gap > STALL_S)
        s->deadline += gap - SPAWN_POLL_MS / 1000.0;
    s->last_look = now;
    return now >= s->deadline;
}

/* A command's whole tree, sampled at every look; its limit is above the
 * baseline it reported (but no higher than the tree held then: a command
 * cannot lift its own limit by its word), or above nothing while it has
 * reported none. */
int watchdog_command_over_limit(struct spawned *s)
{
    /* A look can come far more often than every 20 ms (output wakes the
     * runner); the walk of the tree is taken at that pace at most. */
    double now = monotonic_seconds();
    if (now - s->watch->sampled_at >= SPAWN_POLL_MS / 1000.0) {
        command_watch_sample(s->watch, s->pid);
        s->watch->sampled_at = now;
    }
    double tree_mib = s->watch->tree_peak_kib / 1024.0, base = command_watch_baseline_mib(s->watch, s->r);
    s->seen_rss_mib = tree_mib;
    return s->mem_limit > 0 && (tree_mib - base) * 1048576.0 > (double)s->mem_limit;
}

/* The watchdog's sample: the worker's RSS over its baseline, past the limit?
 * Sampled every 20 ms, so a fast-growing worker can overshoot by the
 * memory it touches in that time. */
int watchdog_over_limit(struct spawned *s)
{
    if (s->watch)
        return watchdog_command_over_limit(s);
    long kib = proc_rss_kib(s->pid);
    if (kib > 0 && kib / 1024.0 > s->seen_rss_mib)
        s->seen_rss_mib = kib / 1024.0; /* with or without a limit: a timeout keeps it as its peak */
    if (s->mem_limit <= 0 || s->r->baseline_rss_mib < 0)
        return 0;
    return kib > 0 && (kib / 1024.0 - s->r->baseline_rss_mib) * 1048576.0 > (double)s->mem_limit;
}
