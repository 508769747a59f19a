/* sweep_command.c: the setters of a command job's keys (command,
 * param.NAME; shell is the engine's bool) and the check, when the job
 * ends, that its command can be filled in. */
#include <string.h>
#include "sweeps/command_template.h"
#include "sweeps/sweep_parser.h"
#include "util/hash.h"

SWEEP_SETTER(sweep_set_command)
{
    const struct parser *p = ctx;
    if (strlen(value) >= row->size)
        return opt_fail(why, size, "%s is longer than %zu characters", display, row->size - 1);
    memcpy((char *)target + row->off, value, strlen(value) + 1);
    ((struct sweep_job *)target)->command_line = p->line;
    return 0;
}

static int valid_param_name(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n < SWEEP_PARAM_NAME_MAX &&
           strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* display is the key as written (param.NAME). A [global] param is the
 * job's until the job sets its own; one section sets a name once. */
SWEEP_SETTER(sweep_set_param)
{
    const struct parser *p = ctx;
    struct sweep_job *j = target;
    const char *name = display + strlen(COMMAND_PARAM_PREFIX);
    (void)row;
    if (!valid_param_name(name))
        return opt_fail(why, size, "%s: a param's name is 1-%d letters, digits or _", display,
                        SWEEP_PARAM_NAME_MAX - 1);
    if (strlen(value) >= SWEEP_PARAM_VALUE_MAX)
        return opt_fail(why, size, "%s is longer than %d characters", display, SWEEP_PARAM_VALUE_MAX - 1);
    int i = 0;
    while (i < j->n_params && strcmp(j->params[i].name, name) != 0)
        i++;
    if (i < j->n_params && j->params[i].line > j->line)
        return opt_fail(why, size, OPT_GIVEN_TWICE, display);
    if (i == SWEEP_MAX_PARAMS)
        return opt_fail(why, size, "too many params (at most %d)", SWEEP_MAX_PARAMS);
    j->n_params += i == j->n_params;
    snprintf(j->params[i].name, sizeof j->params[i].name, "%s", name);
    snprintf(j->params[i].value, sizeof j->params[i].value, "%s", value);
    j->params[i].line = p->line;
    return 0;
}

const char *sweep_job_param(const struct sweep_job *j, const char *name, size_t len)
{
    size_t prefix = strlen(COMMAND_PARAM_PREFIX);
    if (len <= prefix || strncmp(name, COMMAND_PARAM_PREFIX, prefix) != 0)
        return NULL;
    for (int i = 0; i < j->n_params; i++)
        if (strlen(j->params[i].name) == len - prefix && !strncmp(j->params[i].name, name + prefix, len - prefix))
            return j->params[i].value;
    return NULL;
}

_Static_assert(COMMAND_PLACEHOLDER_COUNT <= 64, "check_ctx.used has a bit per placeholder");

struct check_ctx {
    const struct sweep_job *job;
    unsigned long long used; /* bit k: placeholder k is in the command */
};

/* Any text for a setting's placeholder, the value for a param's. */
static const char *check_value(void *ctx, const char *name, size_t len)
{
    struct check_ctx *c = ctx;
    int k = command_placeholder_find(name, len);
    if (k >= 0)
        c->used |= 1ULL << k;
    return k >= 0 ? "x" : sweep_job_param(c->job, name, len);
}

/* A slice is built by the command, not by peakfit: points that say
 * `layers N` must pass N on, or they would name a slice the command never
 * cut (the whole model measured under a slice's id). */
static int check_layers_passed(struct parser *p, const struct sweep_job *job, unsigned long long used)
{
    int slice = 0;
    for (int i = 0; i < job->n_layers && !slice; i++)
        slice = job->layers[i];
    if (slice == 0 || (used & (1ULL << command_placeholder_find("layers", 6))))
        return 0;
    return parser_fail(p, "command: layers = %d needs {layers} in the command: the command builds the model, and "
                          "its points would name a slice of %d layers it never cut", slice, slice);
}

int sweep_check_command(struct parser *p, const struct sweep_job *job)
{
    int saved = p->line, rc = 0;
    if (!job->command[0]) {
        p->line = job->line;
        rc = job->shell ? parser_fail(p, "shell = true needs a command") : 0;
        p->line = saved;
        return rc;
    }
    char err[512];
    struct command_argv argv;
    p->line = job->command_line;
    struct check_ctx ctx = {.job = job};
    if (command_expand(job->command, job->shell, check_value, &ctx, &argv, err, sizeof err) != 0)
        rc = parser_fail(p, "command: %s", err);
    else
        rc = check_layers_passed(p, job, ctx.used);
    command_argv_free(&argv);
    p->line = saved;
    return rc;
}

uint64_t sweep_job_command_hash(const struct sweep_job *job)
{
    if (!job->command[0])
        return 0;
    uint64_t h = hash_bytes(job->command, strlen(job->command) + 1, hash_start());
    h = hash_bytes(&job->shell, sizeof job->shell, h);
    for (int i = 0; i < job->n_params; i++) {
        h = hash_bytes(job->params[i].name, strlen(job->params[i].name) + 1, h);
        h = hash_bytes(job->params[i].value, strlen(job->params[i].value) + 1, h);
    }
    return h;
}
