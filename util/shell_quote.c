/* shell_quote.c: single quotes, each ' written as '\''. */
#include "util/shell_quote.h"

void shell_quote(FILE *out, const char *s)
{
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}
