/* sweep_write.c: sweep lines written so that sweep_parse.c reads back each
 * value as it was: its rules (a line ends at a line break, control bytes
 * are binary, '#' or ';' at the start or after white space starts a
 * comment, a list key's value splits at its separator, ',' or the key's,
 * values are trimmed) are the
 * refusals here. */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include "sweeps/sweep.h"
#include "sweeps/sweep_keys.h"
#include "sweeps/sweep_parser.h"
#include "sweeps/sweep_write.h"

/* A line break ends the line; any other control byte but a tab is binary. */
static int has_control(const char *v)
{
    for (; *v; v++)
        if ((unsigned char)*v < 0x20 && *v != '\t')
            return 1;
    return 0;
}

const char *sweep_value_misread(const struct opt_row *key, const char *value)
{
    size_t n = strlen(value);
    if (n == 0)
        return "it is empty";
    if (has_control(value))
        return "it holds a line break or another control character";
    if (isspace((unsigned char)value[0]) || isspace((unsigned char)value[n - 1]))
        return "white space at its start or end would be trimmed";
    if (sweep_comment_at(value, n) < n)
        return "a '#' or ';' at its start or after white space would start a comment";
    char separator = key->list_separator ? key->list_separator : ',';
    if ((key->flags & OPT_LIST) && strchr(value, separator))
        return separator == ',' ? "a ',' would split it into a list" : "its list separator would split it into a list";
    if (strlen(key->name) + 3 + n > SWEEP_LINE_MAX)
        return "the line would be longer than a sweep line may be";
    return NULL;
}

void sweep_writer_start(struct sweep_writer *w, FILE *f, char *err, size_t errlen)
{
    *w = (struct sweep_writer){.f = f, .err = err, .errlen = errlen};
}

/* "key = "value" cannot be ..." ("[name] cannot be ..." without a key), the
 * value shown to its first line break. */
static void refuse(struct sweep_writer *w, const char *key, const char *text, const char *why)
{
    int n = (int)strcspn(text, "\n\r");
    if (key)
        snprintf(w->err, w->errlen, "%s = \"%.*s\" cannot be written into a sweep: %s", key, n, text, why);
    else
        snprintf(w->err, w->errlen, "[%.*s] cannot be written into a sweep: %s", n, text, why);
    w->refused = 1;
}

void sweep_write_comment(struct sweep_writer *w, const char *text)
{
    for (const char *line = text; !w->refused && *line;) {
        size_t n = strcspn(line, "\n");
        fprintf(w->f, "# %.*s\n", (int)n, line);
        line += n + (line[n] == '\n');
    }
}

void sweep_write_section(struct sweep_writer *w, const char *name)
{
    if (w->refused)
        return;
    if (strcmp(name, "global") != 0 && !sweep_job_name_valid(name))
        return refuse(w, NULL, name, "a job's name is letters, digits and _-.+");
    fprintf(w->f, "%s[%s]\n", w->sections++ ? "\n" : "", name);
}

void sweep_write_value(struct sweep_writer *w, const char *key, const char *value)
{
    const struct opt_row *k = sweep_key_find(key);
    const char *why = k ? sweep_value_misread(k, value) : "no sweep key has that name";
    if (w->refused)
        return;
    if (why)
        return refuse(w, key, value, why);
    fprintf(w->f, "%s = %s\n", key, value);
}

void sweep_write_valuef(struct sweep_writer *w, const char *key, const char *fmt, ...)
{
    char value[SWEEP_LINE_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    sweep_write_value(w, key, value);
}

void sweep_write_ints(struct sweep_writer *w, const char *key, const int *v, int n)
{
    const struct opt_row *k = sweep_key_find(key);
    if (w->refused)
        return;
    if (!k || !(k->flags & OPT_LIST) || n < 1)
        return refuse(w, key, "", k && n < 1 ? "it is empty" : "no list key of a sweep has that name");
    fprintf(w->f, "%s = ", key);
    for (int i = 0; i < n; i++)
        fprintf(w->f, "%s%d", i ? ", " : "", v[i]);
    fputc('\n', w->f);
}

int sweep_writer_end(const struct sweep_writer *w) { return w->refused ? -1 : 0; }
