/* hash.h: FNV-1a, 64 bits: a fingerprint of a file's bytes, so that an
 * edited config.json is told apart from the one a row was measured with.
 * Not a defence against anyone choosing collisions. */
#ifndef PEAKFIT_HASH_H
#define PEAKFIT_HASH_H
#include <stddef.h>
#include <stdint.h>

enum { HASH_TEXT_LEN = 17 }; /* 16 hex digits and the terminator */

static inline uint64_t hash_bytes(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static inline uint64_t hash_start(void) { return 0xcbf29ce484222325ULL; }
#endif
