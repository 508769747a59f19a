/* id_index.h: a hash table from text keys (point ids) to ints, so that
 * matching peaks.csv's rows to a grid's points is O(rows + points). Keys
 * are not copied: they must outlive the index. */
#ifndef PEAKFIT_ID_INDEX_H
#define PEAKFIT_ID_INDEX_H
#include <stddef.h>

struct id_index {
    const char **keys;
    int *values;
    size_t cap; /* a power of two, at least twice the keys it was made for */
};

/* Room for n keys. Returns 0, or -1 when out of memory. */
int id_index_init(struct id_index *ix, size_t n);
void id_index_free(struct id_index *ix);
/* Sets key's value; returns the value it had, or -1 when it was new (or
 * the index is full: it never is with at most n keys). */
int id_index_put(struct id_index *ix, const char *key, int value);
/* key's value, or -1. */
int id_index_get(const struct id_index *ix, const char *key);
#endif
