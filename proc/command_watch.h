/* command_watch.h: what the runner watches of a command job's process
 * (sweeps/command_template.h) beyond what it watches of its own worker:
 * the report read strictly (an unknown key, a line that is not key=value,
 * a value that is not a number in its key's range, a key given twice, a
 * NUL byte, a line or a report too long: the point is an error naming the
 * line and the first fault; the row never holds a value peakfit could not
 * read back), the
 * command's stdout and stderr (kept to their last bytes, read for the
 * out-of-memory messages of Python and PyTorch), and the peak of its whole
 * process tree, sampled at each look. */
#ifndef PEAKFIT_COMMAND_WATCH_H
#define PEAKFIT_COMMAND_WATCH_H
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "protocol/point_result.h"
#include "proc/rank_reports.h"

enum {
    COMMAND_REPORT_FD = 3,                  /* as the worker's; named in PEAKFIT_REPORT_FD */
    COMMAND_REPORT_LINE_MAX = 4096,         /* bytes in one report line */
    COMMAND_REPORT_MAX_BYTES = 1 << 20,     /* in the whole report; past it the rest is read and dropped */
    COMMAND_TAIL_BYTES = 4096,              /* of stdout and stderr kept for the error column */
    /* read at one look at most: the rest at the next, at once (spawn_wait_any
     * wakes on output), so that endless output leaves the runner its checks */
    COMMAND_DRAIN_BYTES = 4 << 20,
};

struct command_watch {
    int out_fd;                 /* the read end of its stdout and stderr; -1 at their end */
    char tail[COMMAND_TAIL_BYTES];
    size_t tail_used;
    char carry[31];             /* the output's last bytes: more than the longest out-of-memory message */
    size_t carry_used;
    int oom_said;               /* the output held one of the out-of-memory messages */
    int report_lines;
    long long report_bytes;
    char report_error[256];     /* the first thing wrong with the report; "" while nothing is */
    int key_line[REPORT_SLOTS]; /* the line each key first came on; 0: not yet */
    uint64_t key_value[REPORT_SLOTS]; /* a hash of its value */
    long tree_peak_kib;         /* the largest sample of the tree's resident memory */
    double sampled_at;          /* when the watchdog last sampled it (proc/watchdog.c) */
    pid_t pid;                  /* the command's own process */
    /* The most the tree was seen to hold when its baseline_rss_kib was read:
     * a baseline above it is not the tree's, and the limit is not moved by
     * more than it (proc/watchdog.c). */
    long baseline_bound_kib;
    struct rank_reports ranks;  /* its launcher's ranks (proc/rank_reports.h) */
};

/* ranks: the point's report directory (made before the fork), taken over. */
void command_watch_init(struct command_watch *w, int out_fd, pid_t pid, const struct rank_reports *ranks);
/* One line of the report (without its end of line; len bytes before a cut). */
void command_watch_report_line(struct command_watch *w, struct point_result *r, char *line, size_t len);
/* Reads what the command wrote to stdout and stderr, without waiting: all
 * the pipe holds, up to COMMAND_DRAIN_BYTES, nothing kept but the tail. */
void command_watch_read_output(struct command_watch *w);
/* One sample of the resident memory of pid and every process below it. */
void command_watch_sample(struct command_watch *w, pid_t pid);
/* The baseline the tree's memory limit is above, in MiB: the reported one,
 * but never more than the tree held when it was reported; 0 before any. */
double command_watch_baseline_mib(const struct command_watch *w, const struct point_result *r);
/* The command has ended and r has its exit status and status word: the
 * tree's peak (with wait4's ru_maxrss, the largest single process's),
 * the method, and the status of a command: ok only with exit status 0 and
 * a clean report; oom when its output said so; else error with the last
 * lines of its output; a reported baseline above the peak is the report's
 * fault. Each rank's report in the directory is read as strictly as the
 * pipe's (the first fault, "rank 1's report line 3: ...", makes the point
 * an error), the largest rank's made the point's, and the directory
 * removed. */
void command_watch_finish(struct command_watch *w, struct point_result *r, const struct rusage *ru);
#endif
