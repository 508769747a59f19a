/* markdown.c: text from data files made inert in report.md, and table cells. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "reports/markdown.h"

/* What a character becomes in report.md: an HTML entity for what would
 * open a tag or an entity (a raw <img onerror> or <script> would run in a
 * viewer that renders HTML), a backslash before what Markdown reads as a
 * table cell, code, emphasis or a link ([x](javascript:...)), a space for
 * a control character (a line break would end the table); else itself. */
static const char *md_escape(const unsigned char *p, const unsigned char *start, char *one)
{
    unsigned char c = *p;
    static const char *const entities[][2] = {{"<", "&lt;"}, {">", "&gt;"}, {"&", "&amp;"}};
    for (size_t i = 0; i < sizeof entities / sizeof entities[0]; i++)
        if (c == (unsigned char)entities[i][0][0])
            return entities[i][1];
    /* An _ inside a word (full_training) is literal in CommonMark: left bare. */
    int in_word = c == '_' && p > start && isalnum(p[-1]) && isalnum(p[1]);
    if (c && !in_word && strchr("\\|`*_[]()!~#", c))
        return one[0] = '\\', one[1] = (char)c, one[2] = '\0', one;
    one[0] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    one[1] = '\0';
    return one;
}

const char *md_cell(const char *text, char *out, size_t size)
{
    size_t n = 0;
    char one[3];
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        const char *e = md_escape(p, (const unsigned char *)text, one);
        size_t len = strlen(e);
        if (n + len + 1 > size)
            break; /* whole escapes only: a cut one could leave a bare & or \ */
        memcpy(out + n, e, len);
        n += len;
    }
    if (size)
        out[n] = '\0';
    return out;
}

void md_code_block(FILE *f, const char *info, const char *text, size_t len)
{
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < len; i++) {
        run = text[i] == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    int fence = longest < 3 ? 3 : (int)longest + 1;
    for (int i = 0; i < fence; i++)
        fputc('`', f);
    fprintf(f, "%s\n", info);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        fputc(c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7f) ? c : ' ', f);
    }
    if (len && text[len - 1] != '\n')
        fputc('\n', f);
    for (int i = 0; i < fence; i++)
        fputc('`', f);
    fputc('\n', f);
}

void md_key_header(FILE *f, int rule)
{
#define KEY_HEADER(field, size) fprintf(f, rule ? "|---" : "| %s ", #field);
    GROUP_KEY_FIELDS(KEY_HEADER)
#undef KEY_HEADER
}

void md_key_cells(FILE *f, const struct group_key *key)
{
    char name[sizeof key->model], cell[2 * sizeof key->model];
#define KEY_CELL(field, size)                                                                           \
    fprintf(f, "| %s ", md_cell(strcmp(#field, "model") ? key->field                                    \
                                                        : model_display_name(key->field, name, sizeof name), \
                                cell, sizeof cell));
    GROUP_KEY_FIELDS(KEY_CELL)
#undef KEY_CELL
}

const char *md_key_label(const struct group_key *key, char *out, size_t size)
{
    char text[600];
    group_key_format(key, text, sizeof text);
    return md_cell(text, out, size);
}

const char *md_number(double v, const char *fmt, char *out, size_t size)
{
    if (v < 0 || v != v)
        snprintf(out, size, "%s", "");
    else
        snprintf(out, size, fmt, v);
    return out;
}
