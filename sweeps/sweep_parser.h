/* sweep_parser.h: what the line reader (sweep_parse.c) and the key table's
 * own value setters (sweep_key_set.c, sweep_command.c) share. Private to
 * sweeps/. */
#ifndef PEAKFIT_SWEEP_PARSER_H
#define PEAKFIT_SWEEP_PARSER_H
#include "sweeps/sweep.h"
#include "sweeps/sweep_keys.h"
#include "sweeps/sweep_setters.h"

struct parser {
    const char *path;         /* NULL: one option (the worker's): no file or line */
    int line;
    char *err;
    size_t errlen;
    struct sweep *sweep;
    struct sweep_job *job;    /* the section being read */
};

/* Writes "FILE:LINE: message" (or the message alone) into p->err; returns -1. */
int parser_fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets key on p->job from value through its row (util/options.h's
 * opt_set_in, ctx p). Returns 0 or -1. */
int sweep_key_set(struct parser *p, const struct opt_row *key, const char *display, const char *value);

/* Where a comment starts in n bytes of text: a '#' or ';' at the start or
 * after white space (`batch = 1, 2  # small` is "1, 2"; a '#' inside a
 * word stays); n when there is none. */
size_t sweep_comment_at(const char *text, size_t n);

/* At the end of a job: its command splits, and names only placeholders it has. */
int sweep_check_command(struct parser *p, const struct sweep_job *job);
#endif
