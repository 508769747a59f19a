/* name_list.h: "a, b, c", the one way names are joined for a message, a
 * help line or a title. Start on a buffer, add names one at a time; what
 * does not fit is cut at the buffer's end (always terminated). */
#ifndef PEAKFIT_NAME_LIST_H
#define PEAKFIT_NAME_LIST_H
#include <stddef.h>

struct name_list {
    char *buf;
    size_t size, used;
    int n; /* names added, whether or not they fitted */
};

void name_list_start(struct name_list *l, char *buf, size_t size);
/* Appends ", name" (or name when it is the first). */
void name_list_add(struct name_list *l, const char *name);
/* name_list_add of a printf-formatted name ("`q`", "cuda:N", "8"). */
void name_list_addf(struct name_list *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether the buffer is full: what is added from now on is cut. */
int name_list_full(const struct name_list *l);
/* Whether name is one of the names added. */
int name_list_has(const struct name_list *l, const char *name);

/* The count names name_at(0 .. count-1) joined into buf; returns buf. */
const char *names_joined(char *buf, size_t size, const char *(*name_at)(int i), int count);
#endif
