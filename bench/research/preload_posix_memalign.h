/* preload_posix_memalign.h: posix_memalign over the preload's own memalign, so
 * c10's 64-byte-aligned tensors (posix_memalign) pass through the preload's
 * log. Included by the LD_PRELOAD tracers (rss_trace.c, heap_log.c), each of
 * which defines memalign first. */
#ifndef PRELOAD_POSIX_MEMALIGN_H
#define PRELOAD_POSIX_MEMALIGN_H

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align % sizeof(void *) != 0 || (align & (align - 1)) != 0)
        return 22; /* EINVAL */
    void *p = memalign(align, n);
    if (!p && n)
        return 12; /* ENOMEM */
    *out = p;
    return 0;
}

#endif
