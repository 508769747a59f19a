/* sweep_write.h: the one writer of sweep files' lines, for the sweeps that
 * peakfit writes itself (auto's DIR/auto.sweep, verify's verify.sweep) and
 * the paths that a results directory's copy resolves (sweep_freeze.c). The
 * format has no quoting: a value is written only when sweep_parse.c reads
 * it back as it is, and one that it would misread (a line break, a comment,
 * a list separator in a list key's value, white space at either end) is
 * refused with a message, never written. */
#ifndef PEAKFIT_SWEEP_WRITE_H
#define PEAKFIT_SWEEP_WRITE_H
#include <stddef.h>
#include <stdio.h>
#include "util/options.h"

/* NULL when `key = value` reads back as value (one item, where key is a
 * list key), else what in value would be misread, in words. */
const char *sweep_value_misread(const struct opt_row *key, const char *value);

/* Writes a sweep to f. The first refusal stops the writing and keeps its
 * message in err; the caller then abandons the file. */
struct sweep_writer {
    FILE *f;
    char *err;
    size_t errlen;
    int refused;
    int sections;
};

void sweep_writer_start(struct sweep_writer *w, FILE *f, char *err, size_t errlen);
/* "# line" for each line of text. */
void sweep_write_comment(struct sweep_writer *w, const char *text);
/* "[name]" ([global] or a job's name), after a blank line but the first. */
void sweep_write_section(struct sweep_writer *w, const char *name);
/* "key = value": one value (one item of a list key). */
void sweep_write_value(struct sweep_writer *w, const char *key, const char *value);
/* "key = value" with value as printf writes it. */
void sweep_write_valuef(struct sweep_writer *w, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "key = v[0], v[1], ...": a list key's n numbers. */
void sweep_write_ints(struct sweep_writer *w, const char *key, const int *v, int n);
/* 0 when every line was written, -1 when one was refused (err says why). */
int sweep_writer_end(const struct sweep_writer *w);
#endif
