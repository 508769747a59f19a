/* term_text.h: text from a data file (fit.json's model, layers and CPU
 * names, an environment variable) printed to a terminal: shown, never
 * obeyed. The one escaper for the terminal, as md_cell is Markdown's and
 * shell_quote the shell's. */
#ifndef PEAKFIT_TERM_TEXT_H
#define PEAKFIT_TERM_TEXT_H
#include <stddef.h>

/* text with every byte a terminal would act on written as \xNN: the C0
 * controls (ESC, CR, a newline that would forge a line of its own), DEL,
 * the C1 controls (as UTF-8, \xc2\x80 to \xc2\x9f) and any byte that is no
 * part of valid UTF-8 (a lone 0x9b is CSI to an 8-bit terminal); a
 * backslash as \\, so that what is shown reads back one way. Cut at size
 * only between whole characters. Returns out. */
const char *term_text(const char *text, char *out, size_t size);
#endif
