/* command_job.c: a point's values for a command's placeholders, the
 * program on PATH, and the checks before a sweep starts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "point/command_job.h"
#include "core/attention.h"
#include "core/optimizer.h"
#include "core/technique.h"
#include "util/exit_status.h"
#include "util/shell_quote.h"

int command_job_is(const struct grid_point *p) { return p->job->command[0] != '\0'; }

struct point_values {
    const struct grid_point *p;
    int threads;
    char text[64]; /* a number or the LoRA list, used before the next value is asked for */
};

static const char *number(struct point_values *v, long long n)
{
    snprintf(v->text, sizeof v->text, "%lld", n);
    return v->text;
}

static const char *value_of(void *ctx, const char *name, size_t len)
{
    struct point_values *v = ctx;
    const struct grid_point *p = v->p;
    const struct sweep_job *j = p->job;
    switch (command_placeholder_find(name, len)) {
    case COMMAND_batch: return number(v, p->batch);
    case COMMAND_seq_len: return number(v, p->seq_len);
    case COMMAND_technique: return technique_name(p->technique);
    case COMMAND_attention: return attention_name(p->attention);
    case COMMAND_device: return p->device;
    case COMMAND_model: return p->model_source;
    case COMMAND_model_name: return p->model;
    case COMMAND_seed: return number(v, j->seed);
    case COMMAND_repeat: return number(v, p->repeat);
    case COMMAND_steps: return number(v, j->steps);
    case COMMAND_threads: return number(v, v->threads);
    case COMMAND_lora_rank: return number(v, j->lora_rank);
    case COMMAND_layers: return number(v, p->layers);
    case COMMAND_lora_targets: lora_targets_to_list(j->lora_targets, v->text, sizeof v->text); return v->text;
    case COMMAND_optimizer: return optimizer_name(optimizer_resolved(j->optimizer, p->device));
    case COMMAND_zero_grad: return zero_grad_name(j->zero_grad);
    case COMMAND_warm: return number(v, j->warm);
    case COMMAND_job: return j->name;
    case COMMAND_point_id: return p->id;
    default: return sweep_job_param(j, name, len);
    }
}

/* name as execvp would find it, without execvp's fallback of running a
 * file without #! through /bin/sh. 0, or -1 with why in err. */
static int find_program(const char *name, char path[PATH_MAX], char *err, size_t errlen)
{
    struct stat st;
    if (strchr(name, '/')) {
        snprintf(path, PATH_MAX, "%s", name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return snprintf(err, errlen, "is a directory"), -1;
        if (access(path, X_OK) != 0)
            return snprintf(err, errlen, "%s", strerror(errno)), -1;
        return 0;
    }
    const char *dirs = getenv("PATH");
    dirs = dirs && dirs[0] ? dirs : "/usr/local/bin:/usr/bin:/bin";
    for (const char *d = dirs; d; d = strchr(d, ':') ? strchr(d, ':') + 1 : NULL) {
        int n = (int)strcspn(d, ":");
        if (snprintf(path, PATH_MAX, "%.*s/%s", n ? n : 1, n ? d : ".", name) >= PATH_MAX)
            continue;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
            return 0;
    }
    snprintf(err, errlen, "not found on PATH");
    return -1;
}

int command_job_argv(const struct grid_point *p, int threads, struct command_argv *argv, char path[PATH_MAX],
                     char *err, size_t errlen)
{
    struct point_values v = {.p = p, .threads = threads};
    if (command_expand(p->job->command, p->job->shell, value_of, &v, argv, err, errlen) != 0)
        return -1;
    if (find_program(argv->argv[0], path, err, errlen) == 0)
        return 0;
    char why[256];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, errlen, "command \"%.200s\": %s", argv->argv[0], why);
    command_argv_free(argv);
    return -1;
}

const char *command_job_text(const struct grid_point *p)
{
    static char text[8192];
    struct command_argv argv;
    struct point_values v = {.p = p, .threads = p->job->threads};
    char err[256];
    text[0] = '\0';
    if (!command_job_is(p) || command_expand(p->job->command, p->job->shell, value_of, &v, &argv, err, sizeof err))
        return text;
    FILE *out = fmemopen(text, sizeof text, "w");
    for (char **e = argv.env; out && *e; e++) {
        size_t name = strcspn(*e, "=");
        fprintf(out, "%.*s=", (int)name, *e);
        shell_quote(out, *e + name + 1);
        fputc(' ', out);
    }
    for (int w = 0; out && w < argv.argc; w++) {
        if (w)
            fputc(' ', out);
        shell_quote(out, argv.argv[w]);
    }
    if (out)
        fclose(out);
    text[sizeof text - 1] = '\0';
    command_argv_free(&argv);
    return text;
}
