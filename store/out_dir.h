/* out_dir.h: `run`'s output directory: its path checked and created, a
 * lock that keeps a second runner out, and a copy of the sweep beside the
 * results. Each returns an exit status (util/exit_status.h) after saying
 * what is wrong, or a descriptor. */
#ifndef PEAKFIT_OUT_DIR_H
#define PEAKFIT_OUT_DIR_H
#include <limits.h>

/* Room kept under PATH_MAX for the names of the files peakfit writes in
 * the directory ("/sweep.sweep.tmp.PID", "/plots/peak_vs_tokens.png"). */
enum { OUT_DIR_MAX = PATH_MAX - 64 };

/* Refuses a path longer than OUT_DIR_MAX (naming the -o option) before
 * anything is created, then creates the directory and its parents.
 * EXIT_DONE, EXIT_BAD_INPUT or EXIT_IO. */
int out_dir_prepare(const char *dir);

/* 1: the locks below wait for another runner to let go (the tasks of one
 * sweep on a cluster take turns to read and append); 0 (the default): they
 * refuse at once, saying who holds them. */
void out_dir_lock_waits(int wait);

/* Locks DIR/.peakfit.lock for the whole run; returns its descriptor, or
 * -1 after saying why (another runner holds it, or it cannot be made). */
int out_dir_lock(const char *dir);

/* The lock file can be deleted under a running runner, so the results file
 * is locked too: an existing regular csv_path is opened (never blocking:
 * a FIFO is left for results_open to refuse) and locked; a missing one is
 * created empty and locked before results_open writes its header. Returns
 * its descriptor, -1 when it cannot be made or opened here (lock the
 * descriptor results_open returns instead: out_dir_lock_fd), or -2 after
 * saying that another runner holds it. */
int out_dir_lock_results(const char *dir, const char *csv_path);
/* Locks an open results descriptor; 0, or -1 after saying so. */
int out_dir_lock_fd(int fd, const char *dir, const char *csv_path);

/* Copies the sweep to DIR/sweep.sweep (for the report, a resume, a Slurm
 * job's tasks) through a temporary file and a rename, its relative model
 * and weights paths resolved (sweeps/sweep_freeze.h); nothing to do when
 * that is the sweep itself (`run DIR/sweep.sweep -o DIR`). 0, or -1 after
 * saying why. */
int out_dir_keep_sweep(const char *sweep_path, const char *dir);
#endif
