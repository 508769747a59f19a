/* command_watch.c: a command's report, output and process tree. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "proc/command_watch.h"
#include "proc/proc_tree.h"
#include "util/hash.h"

/* What a process that ran out of memory prints: Python's MemoryError
 * (and PyTorch's OutOfMemoryError, which ends in it), the CUDA and MPS
 * allocators' messages, and C++'s. */
static const char *const oom_words[] = {"MemoryError", "CUDA out of memory", "MPS backend out of memory",
                                        "std::bad_alloc"};

void command_watch_init(struct command_watch *w, int out_fd, pid_t pid, const struct rank_reports *ranks)
{
    memset(w, 0, sizeof *w);
    w->out_fd = out_fd;
    w->pid = pid;
    if (ranks)
        w->ranks = *ranks;
}

static void report_fails(struct command_watch *w, const char *fmt, const char *what)
{
    if (w->report_error[0])
        return;
    int n = snprintf(w->report_error, sizeof w->report_error, "report line %d: ", w->report_lines);
    snprintf(w->report_error + n, sizeof w->report_error - (size_t)n, fmt, what);
}

void command_watch_report_line(struct command_watch *w, struct point_result *r, char *line, size_t len)
{
    w->report_lines++;
    w->report_bytes += (long long)len + 1;
    if (w->report_error[0])
        return; /* the first fault is the one named; the rest is read and dropped */
    if (w->report_bytes > COMMAND_REPORT_MAX_BYTES)
        return report_fails(w, "the report is longer than %s bytes", "1048576");
    if (len >= COMMAND_REPORT_LINE_MAX)
        return report_fails(w, "longer than %s bytes", "4095");
    if (memchr(line, '\0', len))
        return report_fails(w, "holds a NUL byte%s", "");
    if (!line[0])
        return;
    char start[48], why[128];
    int slot;
    snprintf(start, sizeof start, "%.40s", line);
    switch (point_result_read_line(r, line, &slot, why, sizeof why)) {
    case REPORT_LINE_NOT_KEY_VALUE: return report_fails(w, "\"%s\" is not key=value", start);
    case REPORT_LINE_UNKNOWN: return report_fails(w, "unknown key \"%s\"", line); /* cut at its '=' */
    case REPORT_LINE_BAD_VALUE: return report_fails(w, "%s", why);
    default: break;
    }
    /* Said again with the same value (a helper writing the model's sizes
     * once more) is one answer; with another, which one stands is a guess. */
    const char *value = line + strlen(line) + 1;
    uint64_t h = hash_bytes(value, strlen(value), hash_start());
    if (w->key_line[slot] && !point_result_repeats(slot) && w->key_value[slot] != h) {
        snprintf(why, sizeof why, "\"%s\" again with another value (first on line %d)", line, w->key_line[slot]);
        return report_fails(w, "%s", why);
    }
    if (!w->key_line[slot])
        w->key_line[slot] = w->report_lines;
    w->key_value[slot] = h;
    if (slot == REPORT_baseline_rss_kib * PF_PHASE_COUNT && w->pid > 0) {
        command_watch_sample(w, w->pid);
        w->baseline_bound_kib = w->tree_peak_kib;
    }
}

/* The last bytes of output: when full, the older half goes. */
static void keep_tail(struct command_watch *w, const char *data, size_t n)
{
    if (n >= sizeof w->tail) {
        data += n - sizeof w->tail / 2;
        n = sizeof w->tail / 2;
        w->tail_used = 0;
    }
    if (w->tail_used + n > sizeof w->tail) {
        size_t drop = w->tail_used + n - sizeof w->tail / 2;
        drop = drop > w->tail_used ? w->tail_used : drop;
        memmove(w->tail, w->tail + drop, w->tail_used - drop);
        w->tail_used -= drop;
    }
    memcpy(w->tail + w->tail_used, data, n);
    w->tail_used += n;
}

static int says_oom(const char *text, size_t n)
{
    for (size_t i = 0; i < sizeof oom_words / sizeof oom_words[0]; i++)
        if (memmem(text, n, oom_words[i], strlen(oom_words[i])))
            return 1;
    return 0;
}

/* The output is searched for the words as it comes, a read at a time,
 * never line by line (millions of short lines cost nothing more): the
 * last bytes of each read are kept and searched with the start of the
 * next, so that a word cut between two reads is found too. */
static void scan_words(struct command_watch *w, const char *data, size_t n)
{
    enum { CARRY = sizeof w->carry };
    char joint[2 * CARRY];
    size_t head = n < CARRY ? n : CARRY;
    memcpy(joint, w->carry, w->carry_used);
    memcpy(joint + w->carry_used, data, head);
    w->oom_said |= says_oom(joint, w->carry_used + head) || says_oom(data, n);
    size_t total = w->carry_used + n, keep = total < CARRY ? total : CARRY;
    if (n >= keep) {
        memcpy(w->carry, data + n - keep, keep);
    } else {
        memmove(w->carry, w->carry + w->carry_used - (keep - n), keep - n);
        memcpy(w->carry + keep - n, data, n);
    }
    w->carry_used = keep;
}

void command_watch_read_output(struct command_watch *w)
{
    static char chunk[1 << 16];
    for (size_t taken = 0; w->out_fd >= 0 && taken < COMMAND_DRAIN_BYTES;) {
        struct pollfd p = {.fd = w->out_fd, .events = POLLIN};
        if (poll(&p, 1, 0) <= 0)
            return; /* nothing now (or a signal: the next look reads it) */
        ssize_t n = read(w->out_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(w->out_fd);
            w->out_fd = -1;
            return;
        }
        keep_tail(w, chunk, (size_t)n);
        scan_words(w, chunk, (size_t)n);
        taken += (size_t)n;
    }
}

void command_watch_sample(struct command_watch *w, pid_t pid)
{
    long kib = proc_tree_rss_kib(pid);
    if (kib > w->tree_peak_kib)
        w->tree_peak_kib = kib;
    rank_reports_sample(&w->ranks, pid);
}

/* One rank's file, line by line, as the pipe is read: into rr; its first
 * fault, named as the rank's, into the point's report error. Read as the
 * pipe is, at most COMMAND_REPORT_MAX_BYTES and one byte more: a line
 * keeps its first COMMAND_REPORT_LINE_MAX bytes and counts the rest, so a
 * file of gigabytes without a newline costs a megabyte of reading and no
 * memory. */
static void read_rank_file(struct command_watch *w, int rank, FILE *f, struct point_result *rr)
{
    static struct command_watch one;
    static char line[COMMAND_REPORT_LINE_MAX + 1];
    size_t len = 0;
    long long total = 0;
    int c = 0;
    command_watch_init(&one, -1, -1, NULL);
    point_result_init(rr);
    while (total <= COMMAND_REPORT_MAX_BYTES && (c = getc(f)) != EOF) {
        total++;
        if (c != '\n') {
            if (len < sizeof line - 1)
                line[len] = (char)c;
            len++;
            continue;
        }
        line[len < sizeof line ? len : sizeof line - 1] = '\0';
        command_watch_report_line(&one, rr, line, len);
        len = 0;
    }
    if (len > 0 || total > COMMAND_REPORT_MAX_BYTES) { /* a last line without its newline, or the cut */
        line[len < sizeof line ? len : sizeof line - 1] = '\0';
        command_watch_report_line(&one, rr, line, len);
    }
    if (one.report_error[0] && !w->report_error[0])
        snprintf(w->report_error, sizeof w->report_error, "rank %d's %.200s", rank, one.report_error);
}

/* Each rank-R.report of the directory into ranks[R]; anything else there
 * is the report's fault. */
static void read_rank_files(struct command_watch *w, struct rank_result *ranks)
{
    DIR *d = w->ranks.dir[0] ? opendir(w->ranks.dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[PATH_MAX + 256];
        int rank = -1;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", w->ranks.dir, e->d_name);
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        struct stat st;
        FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "r") : NULL;
        if (!f && fd >= 0)
            close(fd);
        char canonical[64] = "";
        if (sscanf(e->d_name, "rank-%d", &rank) == 1)
            snprintf(canonical, sizeof canonical, "rank-%d.report", rank);
        if (rank < 0 || rank >= RANK_PEAKS_MAX || strcmp(canonical, e->d_name) != 0 || !f) {
            if (!w->report_error[0])
                snprintf(w->report_error, sizeof w->report_error,
                         "PEAKFIT_REPORT_DIR holds \"%.100s\": not a file rank-R.report (R from 0 to %d)",
                         e->d_name, RANK_PEAKS_MAX - 1);
        } else {
            ranks[rank].present = 1;
            read_rank_file(w, rank, f, &ranks[rank].r);
        }
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
}

double command_watch_baseline_mib(const struct command_watch *w, const struct point_result *r)
{
    double bound = w->baseline_bound_kib / 1024.0;
    if (r->baseline_rss_mib <= 0)
        return 0;
    return r->baseline_rss_mib < bound ? r->baseline_rss_mib : bound;
}

/* A baseline is what the tree held before the work: never more than its
 * peak. One above it (bytes written as KiB, a made-up number) would make
 * the peak above baseline negative and hide the memory the point used. */
static void check_baseline(struct command_watch *w, const struct point_result *r)
{
    if (w->report_error[0] || r->baseline_rss_mib < 0 || r->baseline_rss_mib <= r->peak_rss_mib)
        return;
    snprintf(w->report_error, sizeof w->report_error,
             "report line %d: baseline_rss_kib %.0f (%.1f MiB) is above the process tree's peak, %.1f MiB",
             w->key_line[REPORT_baseline_rss_kib * PF_PHASE_COUNT], r->baseline_rss_mib * 1024,
             r->baseline_rss_mib, r->peak_rss_mib);
}

/* The last three lines of the output (at most its last 320 bytes),
 * joined by " | ", into out. */
static void last_lines(const struct command_watch *w, char *out, size_t size)
{
    const char *t = w->tail;
    size_t end = w->tail_used, start, used = 0;
    int lines = 0;
    while (end > 0 && (t[end - 1] == '\n' || t[end - 1] == ' ' || t[end - 1] == '\r'))
        end--;
    for (start = end; start > 0 && !(t[start - 1] == '\n' && ++lines == 3);)
        start--;
    if (end - start > 320)
        start = end - 320;
    for (size_t i = start; i < end && used + 4 < size; i++) {
        if (t[i] == '\n')
            used += (size_t)snprintf(out + used, size - used, " | ");
        else
            out[used++] = t[i];
    }
    out[used] = '\0';
}

static void set_error(struct point_result *r, const char *what, const struct command_watch *w)
{
    char lines[400];
    last_lines(w, lines, sizeof lines);
    if (r->error[0]) /* what the command reported (error=...) says it best */
        return;
    snprintf(r->error, sizeof r->error, "%s%s%s", what, lines[0] ? ": " : "", lines);
}

static void judge(struct command_watch *w, struct point_result *r)
{
    char what[64];
    if (strcmp(r->status, "timeout") == 0 || (strcmp(r->status, "oom") == 0 && r->signal == SIGKILL) ||
        (r->exit_code < 0 && !r->signal))
        return; /* the runner's own verdict: timeout, the watchdog, or an end it could not wait for */
    if (r->signal) {
        snprintf(what, sizeof what, "command killed by signal %d (%s)", r->signal, strsignal(r->signal));
        r->error[0] = '\0';
        set_error(r, what, w);
        return;
    }
    if (r->exit_code == 0 && !w->report_error[0]) {
        snprintf(r->status, sizeof r->status, "ok");
        return;
    }
    snprintf(r->status, sizeof r->status, "%s", r->exit_code != 0 && w->oom_said ? "oom" : "error");
    if (r->exit_code == 0) {
        snprintf(r->error, sizeof r->error, "%s", w->report_error);
        return;
    }
    snprintf(what, sizeof what, "exit status %d", r->exit_code);
    set_error(r, what, w);
}

void command_watch_finish(struct command_watch *w, struct point_result *r, const struct rusage *ru)
{
    command_watch_read_output(w);
    if (w->out_fd >= 0)
        close(w->out_fd);
    w->out_fd = -1;
    /* ru_maxrss: the largest single process of the tree that was waited
     * for, which a sample every 20 ms can miss. */
    long peak = ru->ru_maxrss > w->tree_peak_kib ? ru->ru_maxrss : w->tree_peak_kib;
    r->peak_rss_mib = peak > 0 ? peak / 1024.0 : -1;
    if (r->baseline_rss_mib < 0)
        r->baseline_rss_mib = 0; /* none reported: the whole tree is the peak */
    if (r->baseline_tensor_mib < 0 && r->tensor_peak_mib >= 0)
        r->baseline_tensor_mib = 0; /* as for RSS: its peaks are taken as they came */
    snprintf(r->memory_method, sizeof r->memory_method, "tree-poll");
    static struct rank_result ranks[RANK_PEAKS_MAX];
    memset(ranks, 0, sizeof ranks);
    read_rank_files(w, ranks);
    rank_reports_merge(&w->ranks, ranks, r, w->report_error, sizeof w->report_error);
    rank_reports_remove(&w->ranks);
    check_baseline(w, r);
    judge(w, r);
}
