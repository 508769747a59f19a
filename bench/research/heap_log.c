/* bench/research/heap_log.c: an LD_PRELOAD that writes the main thread's
 * malloc calls, with their request sizes and alignments, up to the first
 * request of HEAP_LOG_STOP bytes or more (default 64 MiB: the model's first
 * weight, after the baseline) and below HEAP_LOG_STOP_MAX (none unless set;
 * HEAP_LOG_STOP=4718592 HEAP_LOG_STOP_MAX=67108864 at SmolLM2 b8 s256: the
 * forward's first activation, after the build and AdamW's state), for
 * bench/research/heap_replay.c (#19, README 9).
 *   cc -O2 -shared -fPIC -o heap_log.so bench/research/heap_log.c
 *   HEAP_LOG=FILE LD_PRELOAD=$PWD/heap_log.so CMD...
 * One line per call, in order: "m SIZE ADDR" malloc, "c SIZE ADDR" calloc
 * (SIZE = k * n), "a ALIGN SIZE ADDR" memalign, posix_memalign and
 * aligned_alloc, "r OLD SIZE ADDR" realloc, "f ADDR" free. Other threads'
 * calls are not written (their blocks live in their own arenas). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void __libc_free(void *);

static int log_fd = -1;
static pid_t main_tid;
static size_t stop_bytes = (size_t)64 << 20, stop_max = (size_t)-1;

static void put(const char *fmt, size_t a, size_t b, void *p)
{
    if (log_fd < 0 || gettid() != main_tid)
        return;
    char line[96];
    int n = snprintf(line, sizeof line, fmt, a, b, p);
    if (write(log_fd, line, (size_t)n) < 0)
        log_fd = -1;
}

static void check_stop(size_t n)
{
    if (log_fd >= 0 && n >= stop_bytes && n < stop_max && gettid() == main_tid) {
        close(log_fd);
        log_fd = -1;
    }
}

void *malloc(size_t n)
{
    check_stop(n);
    void *p = __libc_malloc(n);
    put("m %zu %.0zu%p\n", n, 0, p);
    return p;
}

void *calloc(size_t k, size_t n)
{
    check_stop(k * n);
    void *p = __libc_calloc(k, n);
    put("c %zu %.0zu%p\n", k * n, 0, p);
    return p;
}

void *realloc(void *old, size_t n)
{
    check_stop(n);
    void *p = __libc_realloc(old, n);
    put("r %#zx %zu %p\n", (size_t)old, n, p);
    return p;
}

void *memalign(size_t align, size_t n)
{
    check_stop(n);
    void *p = __libc_memalign(align, n);
    put("a %zu %zu %p\n", align, n, p);
    return p;
}

void *aligned_alloc(size_t align, size_t n) { return memalign(align, n); }

#include "preload_posix_memalign.h"

void free(void *p)
{
    if (p)
        put("f %.0zu%.0zu%p\n", 0, 0, p);
    __libc_free(p);
}

__attribute__((constructor)) static void heap_log_start(void)
{
    const char *path = getenv("HEAP_LOG");
    if (!path || !*path)
        return;
    if (getenv("HEAP_LOG_STOP"))
        stop_bytes = (size_t)atol(getenv("HEAP_LOG_STOP"));
    if (getenv("HEAP_LOG_STOP_MAX"))
        stop_max = (size_t)atol(getenv("HEAP_LOG_STOP_MAX"));
    main_tid = gettid();
    log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}
