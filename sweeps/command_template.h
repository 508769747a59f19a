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

/* The placeholders every command job has, one per setting of a point, with
 * what each stands for (docs/own-script.md's table is printed from this
 * list); {param.NAME} adds a job's own (its `param.NAME = value` keys). */
#define COMMAND_PLACEHOLDERS(X)                                                                        \
    X(batch, "the point's micro-batch")                                                               \
    X(seq_len, "the point's sequence length")                                                         \
    X(technique, "the point's technique, as in the sweep (`full`, `lora+ckpt`)")                      \
    X(attention, "the point's attention (`sdpa`, `eager`)")                                            \
    X(device, "the point's device, as in the sweep (`cpu`, `cuda`, `cuda:1`)")                         \
    X(model, "the preset's name, or the canonical path of the model's `config.json`")                  \
    X(model_name, "the model's name, as in point ids")                                                 \
    X(seed, "the job's seed")                                                                          \
    X(repeat, "the repeat, 0 … repeats − 1")                                                          \
    X(steps, "the job's steps")                                                                        \
    X(threads, "the intra-op threads the point gets: the sweep's, or under `-j` its share of the cores") \
    X(lora_rank, "the job's LoRA rank")                                                                \
    X(lora_targets, "the job's LoRA targets, comma-separated (`q,v`)")                                 \
    X(layers, "the job's `layers`: a slice's decoder layers (0: the config's depth)")                 \
    X(optimizer, "the point's optimizer, `auto` resolved for its device (`adamw`, `adamw-foreach`)")    \
    X(zero_grad, "the job's zero_grad (`none`, `zeros`)")                                              \
    X(warm, "the job's warm (`1`: the optimizer's state made before the first step, `0`)")             \
    X(job, "the job's name")                                                                           \
    X(point_id, "the point's id")

enum command_placeholder {
#define COMMAND_ENUM(name, what) COMMAND_##name,
    COMMAND_PLACEHOLDERS(COMMAND_ENUM)
#undef COMMAND_ENUM
    COMMAND_PLACEHOLDER_COUNT
};

#define COMMAND_PARAM_PREFIX "param."
/* shell = true: {batch} is $PEAKFIT_BATCH, {param.lr} $PEAKFIT_PARAM_lr. */
#define COMMAND_ENV_PREFIX "PEAKFIT_"
enum { COMMAND_MAX_WORDS = 512, COMMAND_MAX_ENV = 64, COMMAND_ENV_NAME_MAX = 64 };

/* "batch, seq_len, ..., point_id, param.NAME", for messages and docs. */
const char *command_placeholder_names(void);
/* docs/own-script.md's "| placeholder | value |" table. */
void command_placeholders_markdown(FILE *out);
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
#endif
