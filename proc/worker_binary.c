/* worker_binary.c: where peakfit-worker is, and running it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc/platform.h"
#include "proc/worker_binary.h"
#include "util/exit_status.h"

int worker_binary_self(char *out, size_t size)
{
    if (platform_self_path(out, size) != 0) {
        fprintf(stderr, "peakfit: cannot find its own binary to run workers: %s\n",
                errno == ENAMETOOLONG ? "path longer than PATH_MAX" : strerror(errno));
        return -1;
    }
    return 0;
}

int worker_binary_path(char *out, size_t size)
{
    const char *chosen = getenv("PEAKFIT_WORKER");
    if (chosen && chosen[0]) {
        if ((size_t)snprintf(out, size, "%s", chosen) < size)
            return 0;
        fprintf(stderr, "peakfit: PEAKFIT_WORKER is longer than PATH_MAX\n");
        return -1;
    }
    char self[PATH_MAX];
    if (worker_binary_self(self, sizeof self) != 0)
        return -1;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    if ((size_t)snprintf(out, size, "%s/%s", slash ? self : ".", WORKER_BINARY) >= size) {
        fprintf(stderr, "peakfit: the path of %s is longer than PATH_MAX\n", WORKER_BINARY);
        return -1;
    }
    return 0;
}

int worker_binary_exec(int argc, char **argv)
{
    char path[PATH_MAX];
    (void)argc;
    if (worker_binary_path(path, sizeof path) != 0)
        return EXIT_IO;
    argv[0] = path;
    execv(path, argv);
    fprintf(stderr, "peakfit: cannot run %s: %s\n", path, strerror(errno));
    return EXIT_IO;
}

int worker_binary_check(void)
{
    char path[PATH_MAX];
    if (worker_binary_path(path, sizeof path) != 0)
        return -1;
    if (access(path, X_OK) != 0) {
        fprintf(stderr, "peakfit: cannot run workers: %s: %s (make builds it beside peakfit; "
                "PEAKFIT_WORKER names another)\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
