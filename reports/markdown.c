/* markdown.c: table cells. */
#include <stdio.h>
#include <string.h>
#include "reports/markdown.h"

const char *md_cell(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n + 2 < size; p++) {
        if (*p == '|' || *p == '\\')
            out[n++] = '\\';
        out[n++] = *p < 0x20 || *p == 0x7f ? ' ' : (char)*p;
    }
    if (size)
        out[n] = '\0';
    return out;
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
