/* shell_quote.h: text that reaches a shell script as one word. */
#ifndef PEAKFIT_SHELL_QUOTE_H
#define PEAKFIT_SHELL_QUOTE_H
#include <stdio.h>

/* Writes s as one single-quoted POSIX shell word ('it'\''s'), in which the
 * shell expands nothing: quotes, $( ), backquotes and newlines stay text. */
void shell_quote(FILE *out, const char *s);
#endif
