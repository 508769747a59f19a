/* command_template.h: a command job's `command = ...` text, turned into the
 * argv of one point. The text is split into words once, by these rules
 * (a small subset of the shell's, with no expansion of any kind):
 *   - white space outside quotes separates words;
 *   - '...' keeps everything inside as it is;
 *   - "..." keeps everything inside, except that \" and \\ stand for " and \;
 *   - outside quotes, a backslash makes the next character plain text;
 *   - {NAME} is a placeholder, in or out of quotes: the point's value is put
 *     into the word as plain text, never split, never read for quotes, so a
 *     value is exactly its own argument (or part of the one word it sits in);
 *   - {{ and }} stand for { and }.
 * With shell = true the text is not split, and the shell never sees a
 * value: each placeholder becomes a reference to an environment variable
 * that holds its value ("${PEAKFIT_BATCH}" outside quotes, ${PEAKFIT_BATCH}
 * inside "...", refused inside '...'), and the text is run by /bin/sh -c,
 * which then does everything a shell does with the rest. */
#ifndef PEAKFIT_COMMAND_TEMPLATE_H
#define PEAKFIT_COMMAND_TEMPLATE_H
#include <stddef.h>
#include <stdio.h>
#include "settings/setting_rows.h"

/* The placeholders every command job has: one per setting with a sweep
 * key, named as its key, in the settings table's order
 * (settings/setting_rows.h: a setting added there is a placeholder with no
 * more code, its value the text the worker is given,
 * point/command_job.c), then what the grid makes of each point,
 * COMMAND_GRID_PLACEHOLDERS: X(placeholder, row, what), row the setting
 * row it reads. docs/own-script.md's table is printed from both;
 * {param.NAME} adds a job's own (its `param.NAME = value` keys). */
#define COMMAND_GRID_PLACEHOLDERS(X)                                   \
    X(job, job, "the job's name")                                      \
    X(model_name, model, "the model's name, as in point ids")          \
    X(repeat, repeat, "the repeat, 0 … repeats − 1")                  \
    X(point_id, point_id, "the point's id")

#define COMMAND_SETTING_PLACEHOLDER(A, name, key, ...) SETTING_HAS_KEY(key) +
#define COMMAND_GRID_PLACEHOLDER(placeholder, row, what) 1 +
enum {
    COMMAND_PLACEHOLDER_COUNT = SETTING_ROWS(COMMAND_SETTING_PLACEHOLDER, _)
                                COMMAND_GRID_PLACEHOLDERS(COMMAND_GRID_PLACEHOLDER) 0
};
#undef COMMAND_SETTING_PLACEHOLDER
#undef COMMAND_GRID_PLACEHOLDER

#define COMMAND_PARAM_PREFIX "param."
/* shell = true: {batch} is $PEAKFIT_BATCH, {param.lr} $PEAKFIT_PARAM_lr. */
#define COMMAND_ENV_PREFIX "PEAKFIT_"
enum { COMMAND_MAX_WORDS = 512, COMMAND_MAX_ENV = 64, COMMAND_ENV_NAME_MAX = 64 };

/* "device, technique, ..., point_id, param.NAME", for messages and docs. */
const char *command_placeholder_names(void);
/* The i-th placeholder's name, 0 <= i < COMMAND_PLACEHOLDER_COUNT. */
const char *command_placeholder_name(int i);
/* The setting row a placeholder reads (its key's for a setting's, the
 * grid's row for the grid's), or NULL for no placeholder. */
const char *command_placeholder_row(const char *name, size_t len);
/* What a grid placeholder stands for; NULL for a setting's. */
const char *command_placeholder_what(const char *name, size_t len);
/* The placeholder of that name (len bytes), or -1. */
int command_placeholder_find(const char *name, size_t len);

/* The value of the placeholder named name (len bytes, "param.lr" included),
 * or NULL when there is no such placeholder. */
typedef const char *(*command_value_fn)(void *ctx, const char *name, size_t len);

/* A command's argv, allocated: free with command_argv_free. */
struct command_argv {
    char **argv;    /* argc words and a NULL */
    int argc;
    char *text;     /* the words, each NUL-ended */
    char **env;     /* shell = true: NAME=VALUE of each placeholder used, NULL-ended; else empty */
    char *env_text;
};

/* Splits text (or, with shell, hands it to /bin/sh -c) and fills in each
 * placeholder (with shell, in env). Returns 0, or -1 with what is wrong in err ("unterminated '
 * quote", "unknown placeholder {x} ..."). */
int command_expand(const char *text, int shell, command_value_fn value_of, void *ctx, struct command_argv *out,
                   char *err, size_t errlen);
void command_argv_free(struct command_argv *a);
/* The command as run, for a record: the environment that holds its values
 * with shell (NAME='value' ...), then each word shell-quoted, written into
 * out (size bytes, cut at its end); "" where text does not expand. */
const char *command_quoted(const char *text, int shell, command_value_fn value_of, void *ctx, char *out,
                           size_t size);
#endif
