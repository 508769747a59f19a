/* doc_table.h: a table of a Markdown document (README.md or a file in docs/) as
 * text, for the tests that check it against the list it is generated from
 * (include after tests/check.h). */
#ifndef PEAKFIT_DOC_TABLE_H
#define PEAKFIT_DOC_TABLE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check.h"

/* The table of the document at path (relative to the repository root:
 * tests/run-tests.sh runs from there) whose header line is header (with its
 * newline): from that line to the first line that is not a table row; to
 * free(). */
static inline char *doc_table(const char *path, const char *header)
{
    FILE *f = fopen(path, "r");
    char *text = NULL, line[4096];
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int in_table = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strcmp(line, header) == 0)
            in_table = 1;
        else if (in_table && line[0] != '|')
            break;
        if (in_table)
            fputs(line, out);
    }
    if (f)
        fclose(f);
    fclose(out);
    return text;
}

/* The bare pipes of a table's line (a `\|` is text in a cell). */
static inline int doc_table_pipes(const char *line, const char *end)
{
    int bare = 0;
    for (const char *p = line; p < end; p++)
        bare += *p == '|' && (p == line || p[-1] != '\\');
    return bare;
}

/* Checks the table under header in the document at path against what
 * markdown writes, and that each row markdown writes has the header's
 * cells (a bare `|` in a cell's text would split it). */
static inline void check_doc_table(const char *path, const char *header, void (*markdown)(FILE *out), const char *what)
{
    char *want = NULL, *got = doc_table(path, header);
    size_t size = 0;
    FILE *out = open_memstream(&want, &size);
    markdown(out);
    fclose(out);
    int cells = doc_table_pipes(header, header + strlen(header));
    for (const char *line = want, *end; *line; line = *end ? end + 1 : end) {
        end = line + strcspn(line, "\n");
        int pipes = doc_table_pipes(line, end);
        CHECK(pipes == cells, "%s's %s table: a row of %d cells, not %d: %.*s", path, what, pipes - 1, cells - 1,
              (int)(end - line), line);
    }
    CHECK(strcmp(got, want) == 0, "%s's %s table is not the table's; it should read:\n%s", path, what, want);
    free(got);
    free(want);
}
#endif
