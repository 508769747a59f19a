/* md_table.c: peakfit's own Markdown in a table cell (util/md_table.h). */
#include "util/md_table.h"

void md_table_cell(FILE *out, const char *markdown)
{
    for (const char *p = markdown; *p; p++) {
        if (*p == '|')
            fputc('\\', out);
        fputc(*p, out);
    }
}
