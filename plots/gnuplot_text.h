/* gnuplot_text.h: text from data files (model and technique names) on its
 * way into a gnuplot script or data file. Such text is data, never code:
 * it goes into a single-quoted gnuplot string, the one form in which
 * gnuplot expands nothing (no backquote commands, no @macros, no
 * backslash escapes); only ' itself needs writing twice. A line break
 * would end the command, so control characters become spaces. */
#ifndef PEAKFIT_GNUPLOT_TEXT_H
#define PEAKFIT_GNUPLOT_TEXT_H
#include <stddef.h>

/* Writes text as a gnuplot single-quoted string literal, quotes included,
 * into out; cut short (still a valid literal) if out is too small. */
const char *gnuplot_quote(const char *text, char *out, size_t size);
/* Text for a double-quoted field of a gnuplot data file, which has no
 * escapes at all: " becomes ', control characters spaces. */
const char *gnuplot_data_label(const char *text, char *out, size_t size);
#endif
