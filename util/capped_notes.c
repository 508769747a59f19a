/* capped_notes.c */
#include <stdarg.h>
#include <stdio.h>
#include "util/capped_notes.h"

void note_row(struct capped_notes *n, int line, const char *fmt, ...)
{
    if (n->shown == NOTES_SHOWN) {
        n->more++;
        return;
    }
    n->shown++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "peakfit: %s:%d: ", n->path, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void note_more(struct capped_notes *n, int count)
{
    n->more += count;
}

void notes_end(const struct capped_notes *n, const char *what)
{
    if (n->more > 0)
        fprintf(stderr, "peakfit: %s: ... and %d more %s\n", n->path, n->more, what);
}
