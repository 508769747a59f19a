/* out_dir.c: the output directory's path, creation, locks and sweep copy. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "store/out_dir.h"
#include "sweeps/sweep_freeze.h"
#include "util/exit_status.h"
#include "util/input_file.h"
#include "util/output_file.h"

/* A sweep file is text of a few kilobytes; this bound only stops a copy
 * of something that is not one. */
#define SWEEP_COPY_MAX (16LL << 20)

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int make_dirs(char *path)
{
    for (char *c = path + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        int rc = mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
        *c = '/';
        if (rc != 0)
            return -1;
    }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int out_dir_prepare(const char *dir)
{
    size_t len = strlen(dir);
    /* Checked before anything is made: a cut path would create a stray
     * directory under the shorter name. */
    if (len > OUT_DIR_MAX) {
        fprintf(stderr, "peakfit: -o: the output directory's path is %zu bytes long; at most %d "
                "(PATH_MAX %d, less room for the files written in it)\n", len, OUT_DIR_MAX, PATH_MAX);
        return EXIT_BAD_INPUT;
    }
    char path[PATH_MAX];
    memcpy(path, dir, len + 1);
    if (make_dirs(path) != 0) {
        fprintf(stderr, "peakfit: %s: cannot create output directory: %s\n", dir, strerror(errno));
        return EXIT_IO;
    }
    return EXIT_DONE;
}

static void say_locked(const char *dir, const char *locked)
{
    fprintf(stderr, "peakfit: %s: another peakfit run is writing to this directory (%s is locked)\n", dir, locked);
}

/* Only EWOULDBLOCK means another runner holds it. A file system without
 * flock (ENOLCK, ENOSYS, EOPNOTSUPP: Lustre without its flock mount
 * option, some NFS setups) is named as what it is. */
static void say_lock_failed(const char *dir, const char *locked, int err)
{
    if (err == EWOULDBLOCK)
        say_locked(dir, locked);
    else
        fprintf(stderr, "peakfit: %s: cannot lock %s: %s (the file system does not support flock here; "
                "use an output directory on one that does)\n", dir, locked, strerror(err));
}

/* LOCK_NB: a second runner is refused; without it (Slurm tasks, `run
 * --point`), it waits its turn. */
static int lock_how = LOCK_EX | LOCK_NB;

void out_dir_lock_waits(int wait) { lock_how = wait ? LOCK_EX : LOCK_EX | LOCK_NB; }

/* Held for the whole run: two runners appending to one peaks.csv would
 * each run the other's points. */
int out_dir_lock(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/.peakfit.lock", dir);
    for (int attempt = 0; attempt < 10; attempt++) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            fprintf(stderr, "peakfit: %s: cannot create lock file: %s\n", path, strerror(errno));
            return -1;
        }
        if (flock(fd, lock_how) != 0) {
            say_lock_failed(dir, path, errno);
            close(fd);
            return -1;
        }
        /* Deleted or replaced between open and flock, the file held is no
         * longer the one the next runner would find: take that one. */
        struct stat held, named;
        if (fstat(fd, &held) == 0 && stat(path, &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino)
            return fd;
        close(fd);
    }
    fprintf(stderr, "peakfit: %s: cannot lock: it keeps being replaced\n", path);
    return -1;
}

int out_dir_lock_results(const char *dir, const char *csv_path)
{
    struct stat st;
    int fd = -1;
    /* No peaks.csv yet: made empty and locked here, before results_open
     * writes its header, so that a runner whose lock file was deleted
     * finds it locked, never half-written (it read a header cut short and
     * refused the directory as bad input). An empty file is one
     * results_open starts afresh. */
    if (stat(csv_path, &st) != 0 && errno == ENOENT)
        fd = open(csv_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    /* stat before open: whatever is not a regular file is results_open's
     * to refuse, and opening a FIFO could block with the lock held. */
    if (fd < 0 && (stat(csv_path, &st) != 0 || !S_ISREG(st.st_mode)))
        return -1;
    if (fd < 0)
        fd = open(csv_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1; /* results_open says why */
    if (flock(fd, lock_how) == 0)
        return fd;
    int locked = errno == EWOULDBLOCK;
    close(fd);
    if (!locked)
        return -1; /* a file system without flock: .peakfit.lock still holds */
    say_locked(dir, csv_path);
    return -2;
}

int out_dir_lock_fd(int fd, const char *dir, const char *csv_path)
{
    if (flock(fd, lock_how) == 0 || errno != EWOULDBLOCK)
        return 0;
    say_locked(dir, csv_path);
    return -1;
}

int out_dir_keep_sweep(const char *sweep_path, const char *dir)
{
    char path[PATH_MAX], err[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/sweep.sweep", dir);
    /* Opening the copy for writing would empty the original first. */
    if (same_file(sweep_path, path))
        return 0;
    size_t len;
    char *text = input_file_read(sweep_path, "sweep file", SWEEP_COPY_MAX, &len, err, sizeof err);
    struct output_file out;
    int rc = text ? output_file_open(&out, path, err, sizeof err) : -1;
    if (rc == 0 && sweep_freeze(sweep_path, text, len, out.f) != 0) {
        snprintf(err, sizeof err, "%s: cannot write: %s", path, strerror(errno));
        output_file_abandon(&out);
        rc = -1;
    }
    if (rc == 0)
        rc = output_file_commit(&out, err, sizeof err);
    free(text);
    if (rc != 0)
        fprintf(stderr, "peakfit: %s\n", err);
    return rc;
}
