/* worker_command.c: the argv of peakfit-worker for one grid point, and
 * where peakfit-worker is. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runner/worker_command.h"
#include "sweeps/attention.h"
#include "sweeps/device.h"
#include "sweeps/technique.h"
#include "util/exit_status.h"

static void add_arg(struct worker_command *c, const char *flag, const char *value)
{
    c->argv[c->argc++] = (char *)flag;
    c->argv[c->argc++] = (char *)value;
}

static void add_text(struct worker_command *c, const char *flag, const char *value)
{
    snprintf(c->text[c->n_text], sizeof c->text[0], "%s", value);
    add_arg(c, flag, c->text[c->n_text++]);
}

static void add_number(struct worker_command *c, const char *flag, long long v)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", v);
    add_text(c, flag, text);
}

void worker_command_build(struct worker_command *c, const char *worker, const struct grid_point *p, int threads)
{
    const struct sweep_job *j = p->job;
    memset(c, 0, sizeof *c);
    c->argv[c->argc++] = (char *)worker;
    add_arg(c, "--model", p->model_source);
    add_arg(c, "--device", p->device);
    add_arg(c, "--technique", technique_name(p->technique));
    add_arg(c, "--attention", attention_name(p->attention));
    if (technique_runs_steps(p->technique)) {
        add_number(c, "--batch", p->batch);
        add_number(c, "--seq-len", p->seq_len);
    }
    add_number(c, "--steps", j->steps);
    add_number(c, "--seed", j->seed);
    add_number(c, "--threads", threads);
    add_number(c, "--warm", j->warm);
    add_number(c, "--report-fd", 3);
    if (j->weights[0])
        add_arg(c, "--weights", j->weights);
    if (j->mem_limit > 0 && device_is_gpu(p->device))
        add_number(c, "--mem-limit", (long long)j->mem_limit); /* the device's allocator enforces it */
    if (technique_is_lora(p->technique)) {
        char targets[64];
        lora_targets_to_list(j->lora_targets, targets, sizeof targets);
        add_number(c, "--lora-rank", j->lora_rank);
        add_text(c, "--lora-targets", targets);
    }
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
