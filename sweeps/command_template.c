/* command_template.c: one pass over the command text, writing the words
 * (each NUL-ended) to a memory stream; then the argv points into them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/command_template.h"
#include "util/shell_quote.h"

static const char *const placeholder_names[] = {
#define COMMAND_NAME(name, what) #name,
    COMMAND_PLACEHOLDERS(COMMAND_NAME)
#undef COMMAND_NAME
};

void command_placeholders_markdown(FILE *out)
{
    fprintf(out, "| placeholder | value |\n|---|---|\n");
#define COMMAND_ROW(name, what) fprintf(out, "| `{%s}` | %s |\n", #name, what);
    COMMAND_PLACEHOLDERS(COMMAND_ROW)
#undef COMMAND_ROW
    fprintf(out, "| `{%sNAME}` | the job's `%sNAME = value` (one key per name; those in `[global]` apply to every "
            "job, a job's own override them) |\n", COMMAND_PARAM_PREFIX, COMMAND_PARAM_PREFIX);
}

const char *command_placeholder_names(void)
{
    static char text[512];
    size_t used = 0;
    if (text[0])
        return text;
    for (int i = 0; i < COMMAND_PLACEHOLDER_COUNT; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s, ", placeholder_names[i]);
    snprintf(text + used, sizeof text - used, "%sNAME", COMMAND_PARAM_PREFIX);
    return text;
}

int command_placeholder_find(const char *name, size_t len)
{
    for (int i = 0; i < COMMAND_PLACEHOLDER_COUNT; i++)
        if (strlen(placeholder_names[i]) == len && strncmp(placeholder_names[i], name, len) == 0)
            return i;
    return -1;
}

/* The state of the one pass. */
struct expansion {
    FILE *out;
    int shell;
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
    if (x->shell)
        shell_quote(x->out, value);
    else
        fputs(value, x->out);
    *i += len + 2;
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
        } else
            fputc(text[i++], x->out);
    }
    fputc('\0', x->out);
    x->words = 3;
    return text[strspn(text, " \t")] ? 0 : fail(x, "the command is empty");
}

static int point_into(struct command_argv *a, char *text, int words)
{
    a->argv = malloc(((size_t)words + 1) * sizeof *a->argv);
    if (!a->argv)
        return -1;
    a->text = text;
    for (int w = 0; w < words; w++) {
        a->argv[w] = text;
        text += strlen(text) + 1;
    }
    a->argv[words] = NULL;
    a->argc = words;
    return 0;
}

int command_expand(const char *text, int shell, command_value_fn value_of, void *ctx, struct command_argv *out,
                   char *err, size_t errlen)
{
    char *buf = NULL;
    size_t size = 0;
    struct expansion x = {.out = open_memstream(&buf, &size), .shell = shell, .value_of = value_of, .ctx = ctx,
                          .err = err, .errlen = errlen};
    *out = (struct command_argv){0};
    if (!x.out) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = shell ? fill_in(&x, text) : split(&x, text);
    fclose(x.out);
    if (rc == 0 && !buf[0])
        rc = fail(&x, "the program (the command's first word) is empty");
    if (rc == 0 && point_into(out, buf, x.words) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc != 0)
        free(buf);
    return rc;
}

void command_argv_free(struct command_argv *a)
{
    free(a->argv);
    free(a->text);
    *a = (struct command_argv){0};
}
