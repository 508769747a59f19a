/* option_help.c: what a command's option table says to people: its
 * synopsis, one help line per option, and "did you mean" for a mistyped
 * name. Written from the same rows the parser reads (options.c), so a new
 * option is in the help as soon as it can be given. */
#include <string.h>
#include "util/near_name.h"
#include "util/options.h"

enum { SYNOPSIS_WIDTH = 100, SYNOPSIS_INDENT = 7 };

const char *opt_near(const struct opt_table *t, const char *name)
{
    struct near_name near;
    near_name_start(&near, name);
    for (int i = 0; i < t->n_rows; i++)
        near_name_offer(&near, opt_rows(t)[i].name);
    return near_name_best(&near);
}

/* "-o DIR", "--budget SIZE" or "--json": how the synopsis writes a row. */
static void usage_of(const struct opt_row *r, char *buf, size_t size)
{
    if (r->short_name)
        snprintf(buf, size, "-%c%s%s", r->short_name, r->arg ? " " : "", r->arg ? r->arg : "");
    else
        snprintf(buf, size, "--%s%s%s", r->name, r->arg ? " " : "", r->arg ? r->arg : "");
}

/* Appends word to buf, starting a new indented line past the width;
 * *column is the current line's length (prefix is its start). */
static size_t append_word(char *buf, size_t used, size_t size, const char *word, size_t *column)
{
    if (used >= size)
        return used;
    if (*column + 1 + strlen(word) > SYNOPSIS_WIDTH && *column > SYNOPSIS_INDENT) {
        used += (size_t)snprintf(buf + used, size - used, "\n%*s%s", SYNOPSIS_INDENT, "", word);
        *column = SYNOPSIS_INDENT + strlen(word);
    } else {
        *column += (used ? 1 : 0) + strlen(word);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "", word);
    }
    return used;
}

/* Has an earlier row row i's name? Then that row is the option
 * (OPT_GROUP_AXIS, util/options.h), and row i is never listed. */
static int shadowed(const struct opt_table *t, int i)
{
    const struct opt_row *rows = opt_rows(t);
    for (int j = 0; j < i; j++)
        if (strcmp(rows[j].name, rows[i].name) == 0)
            return 1;
    return 0;
}

void opt_synopsis(const struct opt_table *t, char *buf, size_t size)
{
    char word[160];
    /* "usage: peakfit CMD " comes before it on the first line */
    size_t used = 0, column = strlen("usage: peakfit  ") + strlen(t->command);
    buf[0] = '\0';
    if (t->operands && t->operands[0])
        used = append_word(buf, used, size, t->operands, &column);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->n_rows; i++) {
            const struct opt_row *r = &opt_rows(t)[i];
            int bare = (r->flags & (OPT_REQUIRED | OPT_MAIN_FORM)) != 0;
            if (bare != (pass == 0) || shadowed(t, i))
                continue;
            char use[128];
            usage_of(r, use, sizeof use);
            snprintf(word, sizeof word, bare ? "%s" : "[%s]", use);
            used = append_word(buf, used, size, word, &column);
        }
    if (t->other_forms && used < size)
        snprintf(buf + used, size - used, "\n  %s", t->other_forms);
}

void opt_print_synopsis(const struct opt_table *t, FILE *out)
{
    char synopsis[2048];
    opt_synopsis(t, synopsis, sizeof synopsis);
    fprintf(out, "usage: peakfit %s %s\n", t->command, synopsis);
}

void opt_print_help(const struct opt_table *t, FILE *out)
{
    for (int i = 0; i < t->n_rows; i++) {
        const struct opt_row *o = &opt_rows(t)[i];
        char left[64], shorter[8] = "";
        if (shadowed(t, i))
            continue;
        if (o->short_name)
            snprintf(shorter, sizeof shorter, "-%c, ", o->short_name); /* "-o, --output DIR" */
        snprintf(left, sizeof left, "%s--%s%s%s", shorter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-20s %s%s%s%s\n", left, o->help, o->def ? " (default: " : "", o->def ? o->def : "",
                o->def ? ")" : "");
    }
}
