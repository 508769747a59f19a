/* command_job.c: a point's values for a command's placeholders, the
 * program on PATH, and the checks before a sweep starts. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "point/command_job.h"
#include "point/point_fields.h"
#include "sweeps/sweep_keys.h"
#include "util/md_table.h"
#include "util/exit_status.h"

int command_job_is(const struct grid_point *p) { return p->job->command[0] != '\0'; }

/* The setting row placeholder name reads, or NULL. */
static const struct point_field *placeholder_field(const char *name)
{
    return point_field_of_placeholder(name, strlen(name));
}

/* A setting's placeholder: the point's value, as its key's help says. */
static void placeholder_markdown(FILE *out, const char *name, const struct point_field *f)
{
    const struct opt_row *k = f->key ? sweep_key_find(f->key) : NULL;
    char help[1536] = "";
    if (k)
        sweep_key_help(k, help, sizeof help);
    fprintf(out, "| `{%s}` | the point's `%s`, as peakfit's worker gets it%s%s", name, name,
            f->uses & POINT_RUNNER_PASSES ? " (the run's share of the cores under `-j`)" : "", k ? ": " : "");
    md_table_cell(out, help);
    fprintf(out, " |\n");
}

void command_placeholders_markdown(FILE *out)
{
    fprintf(out, "| placeholder | value |\n|---|---|\n");
    for (int i = 0; i < COMMAND_PLACEHOLDER_COUNT; i++) {
        const char *name = command_placeholder_name(i), *what = command_placeholder_what(name, strlen(name));
        const struct point_field *f = placeholder_field(name);
        assert(what || f); /* a setting's placeholder reads its row */
        if (what) {
            fprintf(out, "| `{%s}` | ", name);
            md_table_cell(out, what);
            fprintf(out, " |\n");
        } else
            placeholder_markdown(out, name, f);
    }
    fprintf(out, "| `{%sNAME}` | the job's `%sNAME = value` (one key per name; those in `[global]` apply to every "
            "job, a job's own override them) |\n", COMMAND_PARAM_PREFIX, COMMAND_PARAM_PREFIX);
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
    struct point_placeholders v = {.p = p, .threads = threads};
    if (command_expand(p->job->command, p->job->shell, point_placeholder_value, &v, argv, err, errlen) != 0)
        return -1;
    if (find_program(argv->argv[0], path, err, errlen) == 0)
        return 0;
    char why[256];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, errlen, "command \"%.200s\": %s", argv->argv[0], why);
    command_argv_free(argv);
    return -1;
}
