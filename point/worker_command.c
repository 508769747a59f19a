/* worker_command.c: the argv of peakfit-worker for one grid point, and
 * where peakfit-worker is. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "point/worker_command.h"
#include "point/point_fields.h"
#include "sweeps/sweep_keys.h"
#include "util/exit_status.h"

static void add_arg(struct worker_command *c, const char *flag, const char *value)
{
    snprintf(c->flags[c->n_flags], sizeof c->flags[0], "--%s", flag);
    c->argv[c->argc++] = c->flags[c->n_flags++];
    c->argv[c->argc++] = (char *)value;
}

/* A value written into the command's own text (a number, the LoRA list);
 * one the grid holds (a path, a name) is pointed to. */
static const char *kept(struct worker_command *c, const char *value, const char *buf)
{
    if (value != buf)
        return value;
    snprintf(c->text[c->n_text], sizeof c->text[0], "%s", buf);
    return c->text[c->n_text++];
}

void worker_command_build(struct worker_command *c, const char *worker, const struct grid_point *p, int threads)
{
    memset(c, 0, sizeof *c);
    c->argv[c->argc++] = (char *)worker;
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++) {
        point_text buf;
        if (point_field_passed(f, p))
            add_arg(c, sweep_key_find(f->key)->flag, kept(c, point_field_value(f, p, buf), buf));
    }
    snprintf(c->text[c->n_text], sizeof c->text[0], "%d", threads);
    add_arg(c, "threads", c->text[c->n_text++]);
    add_arg(c, "report-fd", "3");
    c->argv[c->argc] = NULL;
}

int worker_command_self(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "peakfit: cannot find its own binary to run workers (/proc/self/exe): %s\n",
                n < 0 ? strerror(errno) : "path longer than PATH_MAX");
        return -1;
    }
    out[n] = '\0';
    return 0;
}

int worker_command_path(char *out, size_t size)
{
    const char *chosen = getenv("PEAKFIT_WORKER");
    if (chosen && chosen[0]) {
        if ((size_t)snprintf(out, size, "%s", chosen) < size)
            return 0;
        fprintf(stderr, "peakfit: PEAKFIT_WORKER is longer than PATH_MAX\n");
        return -1;
    }
    char self[PATH_MAX];
    if (worker_command_self(self, sizeof self) != 0)
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

int worker_command_exec(int argc, char **argv)
{
    char path[PATH_MAX];
    (void)argc;
    if (worker_command_path(path, sizeof path) != 0)
        return EXIT_IO;
    argv[0] = path;
    execv(path, argv);
    fprintf(stderr, "peakfit: cannot run %s: %s\n", path, strerror(errno));
    return EXIT_IO;
}

int worker_command_check(void)
{
    char path[PATH_MAX];
    if (worker_command_path(path, sizeof path) != 0)
        return -1;
    if (access(path, X_OK) != 0) {
        fprintf(stderr, "peakfit: cannot run workers: %s: %s (make builds it beside peakfit; "
                "PEAKFIT_WORKER names another)\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
