/* command_template.c: one pass over the command text, writing the words
 * (each NUL-ended) to a memory stream; then the argv points into them. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/command_template.h"
#include "util/shell_quote.h"

/* Each placeholder's name and the setting row it reads. */
static const struct {
    const char *name, *row, *what;
} placeholders[COMMAND_PLACEHOLDER_COUNT] = {
#define SETTING_PLACEHOLDER(A, name, key, ...) SETTING_PLACEHOLDER_IF(SETTING_HAS_KEY(key), name, SETTING_KEY_NAME(key))
#define SETTING_PLACEHOLDER_IF(has, name, k) SETTING_PLACEHOLDER_IF_(has, name, k)
#define SETTING_PLACEHOLDER_IF_(has, name, k) SETTING_PLACEHOLDER_##has(name, k)
#define SETTING_PLACEHOLDER_1(name, k) {k, #name, NULL},
#define SETTING_PLACEHOLDER_0(name, k)
    SETTING_ROWS(SETTING_PLACEHOLDER, _)
#undef SETTING_PLACEHOLDER
#define GRID_PLACEHOLDER(placeholder, row, what) {#placeholder, #row, what},
    COMMAND_GRID_PLACEHOLDERS(GRID_PLACEHOLDER)
#undef GRID_PLACEHOLDER
};

const char *command_placeholder_name(int i) { return placeholders[i].name; }

const char *command_placeholder_names(void)
{
    static char text[1024];
    size_t used = 0;
    if (text[0])
        return text;
    for (int i = 0; i < COMMAND_PLACEHOLDER_COUNT; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s, ", placeholders[i].name);
    snprintf(text + used, sizeof text - used, "%sNAME", COMMAND_PARAM_PREFIX);
    return text;
}

int command_placeholder_find(const char *name, size_t len)
{
    for (int i = 0; i < COMMAND_PLACEHOLDER_COUNT; i++)
        if (strlen(placeholders[i].name) == len && strncmp(placeholders[i].name, name, len) == 0)
            return i;
    return -1;
}

const char *command_placeholder_row(const char *name, size_t len)
{
    int i = command_placeholder_find(name, len);
    return i < 0 ? NULL : placeholders[i].row;
}

const char *command_placeholder_what(const char *name, size_t len)
{
    int i = command_placeholder_find(name, len);
    return i < 0 ? NULL : placeholders[i].what;
}

/* The state of the one pass. */
struct expansion {
    FILE *out;
    int shell;
    /* shell = true: the quote the shell is in at this point of the text
     * ('\'', '"' or 0), and the environment that holds each value used,
     * NAME=VALUE strings, each NUL-ended, each name once. */
    char quote;
    FILE *env;
    int n_env;
    char env_names[COMMAND_MAX_ENV][COMMAND_ENV_NAME_MAX];
    int words;          /* words finished */
    int in_word;        /* a word is open (even an empty one: '') */
    command_value_fn value_of;
    void *ctx;
    char *err;
    size_t errlen;
};

static int fail(struct expansion *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct expansion *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static void end_word(struct expansion *x)
{
    if (!x->in_word)
        return;
    fputc('\0', x->out);
    x->words++;
    x->in_word = 0;
}

/* The variable that holds placeholder name's value: PEAKFIT_BATCH for
 * {batch}, PEAKFIT_PARAM_lr for {param.lr} (a param's name as written:
 * letters, digits and _, so lr and LR stay two). */
static void env_name_of(const char *name, size_t len, char out[COMMAND_ENV_NAME_MAX])
{
    size_t prefix = strlen(COMMAND_PARAM_PREFIX);
    if (len > prefix && strncmp(name, COMMAND_PARAM_PREFIX, prefix) == 0) {
        snprintf(out, COMMAND_ENV_NAME_MAX, "%sPARAM_%.*s", COMMAND_ENV_PREFIX, (int)(len - prefix), name + prefix);
        return;
    }
    int n = snprintf(out, COMMAND_ENV_NAME_MAX, "%s%.*s", COMMAND_ENV_PREFIX, (int)len, name);
    for (int c = (int)strlen(COMMAND_ENV_PREFIX); c < n && c < COMMAND_ENV_NAME_MAX; c++)
        out[c] = (char)toupper((unsigned char)out[c]);
}

/* shell = true: the shell gets a reference to the value, never the value.
 * Whatever the value holds ($( ), quotes, backquotes), the shell expands
 * a parameter once and never reads its text as code. Outside quotes the
 * reference is quoted, so the value stays one word; inside "..." it is
 * bare; inside '...' the shell would not expand it at all. */
static int refer_to(struct expansion *x, const char *name, size_t len, const char *value)
{
    char var[COMMAND_ENV_NAME_MAX];
    if (x->quote == '\'')
        return fail(x, "{%.*s} is inside '...', where the shell would not expand it (put it outside quotes "
                    "or inside \"...\")", (int)len, name);
    env_name_of(name, len, var);
    fprintf(x->out, x->quote == '"' ? "${%s}" : "\"${%s}\"", var);
    int seen = 0;
    while (seen < x->n_env && strcmp(x->env_names[seen], var) != 0)
        seen++;
    if (seen < x->n_env)
        return 0;
    if (x->n_env == COMMAND_MAX_ENV)
        return fail(x, "more than %d placeholders", COMMAND_MAX_ENV);
    snprintf(x->env_names[x->n_env++], COMMAND_ENV_NAME_MAX, "%s", var);
    fprintf(x->env, "%s=%s", var, value);
    fputc('\0', x->env);
    return 0;
}

/* At text[*i] == '{': a placeholder, or "{{". Advances *i past it. */
static int take_placeholder(struct expansion *x, const char *text, size_t *i)
{
    x->in_word = 1;
    if (text[*i + 1] == '{') {
        fputc('{', x->out);
        *i += 2;
        return 0;
    }
    const char *name = text + *i + 1, *close = strchr(name, '}');
    if (!close)
        return fail(x, "a { without its } (write {{ for a brace)");
    size_t len = (size_t)(close - name);
    const char *value = x->value_of(x->ctx, name, len);
    if (!value)
        return fail(x, "unknown placeholder {%.*s} (placeholders: %s)", (int)len, name, command_placeholder_names());
    *i += len + 2;
    if (x->shell)
        return refer_to(x, name, len, value);
    fputs(value, x->out);
    return 0;
}

/* At text[*i] == '}': "}}" is a brace, a lone one is an error. */
static int take_close(struct expansion *x, const char *text, size_t *i)
{
    if (text[*i + 1] != '}')
        return fail(x, "a } without its { (write }} for a brace)");
    fputc('}', x->out);
    x->in_word = 1;
    *i += 2;
    return 0;
}

static int take_brace(struct expansion *x, const char *text, size_t *i)
{
    return text[*i] == '{' ? take_placeholder(x, text, i) : take_close(x, text, i);
}

/* A quoted part, from the quote at text[*i] to its closing one. */
static int take_quoted(struct expansion *x, const char *text, size_t *i)
{
    char quote = text[(*i)++];
    x->in_word = 1;
    while (text[*i] != quote) {
        char c = text[*i];
        if (!c)
            return fail(x, "unterminated %c quote", quote);
        if (c == '{' || c == '}') {
            if (take_brace(x, text, i) != 0)
                return -1;
            continue;
        }
        if (quote == '"' && c == '\\' && (text[*i + 1] == '"' || text[*i + 1] == '\\'))
            (*i)++;
        fputc(text[(*i)++], x->out);
    }
    (*i)++;
    return 0;
}

static int split(struct expansion *x, const char *text)
{
    for (size_t i = 0; text[i];) {
        char c = text[i];
        if (c == ' ' || c == '\t') {
            end_word(x);
            i++;
        } else if (c == '\'' || c == '"') {
            if (take_quoted(x, text, &i) != 0)
                return -1;
        } else if (c == '{' || c == '}') {
            if (take_brace(x, text, &i) != 0)
                return -1;
        } else if (c == '\\') {
            if (!text[i + 1])
                return fail(x, "a \\ at the end of the command");
            fputc(text[i + 1], x->out);
            x->in_word = 1;
            i += 2;
        } else {
            fputc(c, x->out);
            x->in_word = 1;
            i++;
        }
        if (x->words >= COMMAND_MAX_WORDS)
            return fail(x, "more than %d words", COMMAND_MAX_WORDS);
    }
    end_word(x);
    return x->words ? 0 : fail(x, "the command is empty");
}

/* shell = true: the shell's quoting, followed only as far as a reference
 * needs to know where it sits. A backslash outside '...' takes the next
 * character with it (\" does not end "..."); a brace stays peakfit's. */
static size_t shell_text(struct expansion *x, const char *text, size_t i)
{
    char c = text[i];
    if (c == '\\' && x->quote != '\'' && text[i + 1] && text[i + 1] != '{' && text[i + 1] != '}')
        return 2;
    if ((c == '\'' || c == '"') && (!x->quote || x->quote == c))
        x->quote = x->quote ? 0 : c;
    return 1;
}

/* shell = true: only placeholders and braces are peakfit's; the rest is
 * the shell's. */
static int fill_in(struct expansion *x, const char *text)
{
    fputs("/bin/sh", x->out);
    fputc('\0', x->out);
    fputs("-c", x->out);
    fputc('\0', x->out);
    for (size_t i = 0; text[i];) {
        if (text[i] == '{' || text[i] == '}') {
            if (take_brace(x, text, &i) != 0)
                return -1;
            continue;
        }
        size_t n = shell_text(x, text, i);
        fwrite(text + i, 1, n, x->out);
        i += n;
    }
    fputc('\0', x->out);
    x->words = 3;
    return text[strspn(text, " \t")] ? 0 : fail(x, "the command is empty");
}

/* words NUL-ended strings in text, as a NULL-ended array into them. */
static char **point_into(char *text, int words)
{
    char **list = malloc(((size_t)words + 1) * sizeof *list);
    if (!list)
        return NULL;
    for (int w = 0; w < words; w++) {
        list[w] = text;
        text += strlen(text) + 1;
    }
    list[words] = NULL;
    return list;
}

int command_expand(const char *text, int shell, command_value_fn value_of, void *ctx, struct command_argv *out,
                   char *err, size_t errlen)
{
    char *buf = NULL, *env = NULL;
    size_t size = 0, env_size = 0;
    struct expansion x = {.out = open_memstream(&buf, &size), .env = open_memstream(&env, &env_size),
                          .shell = shell, .value_of = value_of, .ctx = ctx, .err = err, .errlen = errlen};
    *out = (struct command_argv){0};
    int rc = !x.out || !x.env ? -1 : shell ? fill_in(&x, text) : split(&x, text);
    if (x.out)
        fclose(x.out);
    if (x.env)
        fclose(x.env);
    if (!x.out || !x.env)
        snprintf(err, errlen, "out of memory");
    else if (rc == 0 && !buf[0])
        rc = fail(&x, "the program (the command's first word) is empty");
    if (rc == 0) {
        *out = (struct command_argv){.argv = point_into(buf, x.words), .argc = x.words, .text = buf,
                                     .env = point_into(env, x.n_env), .env_text = env};
        if (!out->argv || !out->env) {
            snprintf(err, errlen, "out of memory");
            command_argv_free(out);
            return -1;
        }
        return 0;
    }
    free(buf);
    free(env);
    return -1;
}

void command_argv_free(struct command_argv *a)
{
    free(a->argv);
    free(a->text);
    free(a->env);
    free(a->env_text);
    *a = (struct command_argv){0};
}

const char *command_quoted(const char *text, int shell, command_value_fn value_of, void *ctx, char *out,
                           size_t size)
{
    struct command_argv argv;
    char err[256];
    out[0] = '\0';
    if (command_expand(text, shell, value_of, ctx, &argv, err, sizeof err) != 0)
        return out;
    FILE *f = fmemopen(out, size, "w");
    for (char **e = argv.env; f && *e; e++) {
        size_t name = strcspn(*e, "=");
        fprintf(f, "%.*s=", (int)name, *e);
        shell_quote(f, *e + name + 1);
        fputc(' ', f);
    }
    for (int w = 0; f && w < argv.argc; w++) {
        if (w)
            fputc(' ', f);
        shell_quote(f, argv.argv[w]);
    }
    if (f)
        fclose(f);
    out[size - 1] = '\0';
    command_argv_free(&argv);
    return out;
}
