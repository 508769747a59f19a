/* id_index.c: open addressing with linear probing over FNV-1a. */
#include <stdlib.h>
#include <string.h>
#include "util/hash.h"
#include "util/id_index.h"

int id_index_init(struct id_index *ix, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    ix->cap = cap;
    ix->keys = calloc(cap, sizeof *ix->keys);
    ix->values = calloc(cap, sizeof *ix->values);
    if (ix->keys && ix->values)
        return 0;
    id_index_free(ix);
    return -1;
}

void id_index_free(struct id_index *ix)
{
    free(ix->keys);
    free(ix->values);
    memset(ix, 0, sizeof *ix);
}

/* The slot holding key, or the empty slot where it belongs; cap when full. */
static size_t slot(const struct id_index *ix, const char *key)
{
    size_t i = (size_t)hash_bytes(key, strlen(key), hash_start()) & (ix->cap - 1);
    for (size_t probes = 0; probes < ix->cap; probes++, i = (i + 1) & (ix->cap - 1))
        if (!ix->keys[i] || strcmp(ix->keys[i], key) == 0)
            return i;
    return ix->cap;
}

int id_index_put(struct id_index *ix, const char *key, int value)
{
    size_t i = slot(ix, key);
    if (i == ix->cap)
        return -1;
    int old = ix->keys[i] ? ix->values[i] : -1;
    ix->keys[i] = key;
    ix->values[i] = value;
    return old;
}

int id_index_get(const struct id_index *ix, const char *key)
{
    size_t i = slot(ix, key);
    return i < ix->cap && ix->keys[i] ? ix->values[i] : -1;
}
