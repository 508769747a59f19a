/* rss_trace.c: an LD_PRELOAD sampler of a process's resident memory and its
 * malloc heap, for tracing where RSS and live bytes part (bench only).
 *
 *   cc -O2 -shared -fPIC -o rss_trace.so bench/research/rss_trace.c -lpthread
 *   RSS_TRACE=/tmp/trace LD_PRELOAD=$PWD/rss_trace.so CMD...
 *
 * Each process that loads it writes RSS_TRACE.PID: one line every
 * RSS_TRACE_MS milliseconds (default 5) with the time since load (ms), VmRSS
 * (/proc/self/statm) and glibc's mallinfo2() over all arenas, in KiB:
 *   t_ms rss_kib arena_kib hblkhd_kib uordblks_kib fordblks_kib keepcost_kib mmap_threshold_kib
 * arena: heap bytes got from the system (brk and the arenas' mmapped heaps);
 * hblkhd: bytes in chunks mmapped one by one; uordblks: heap bytes in use;
 * fordblks: heap bytes free (kept, resident where they were touched). So
 * uordblks + hblkhd is what malloc has handed out and is live; RSS minus it
 * is code, stacks and the heap's free chunks. A line is written at once
 * (write(2)), so a process that ends with _exit leaves its trace whole.
 * mmap_threshold: glibc's dynamic mmap threshold as free() moves it (malloc.c:
 * freeing a chunk that was mmapped, larger than the threshold and at most
 * DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB on 64-bit, raises the threshold to its
 * size), followed here by wrapping free(); it starts at 128 KiB and is only
 * meaningful while no MALLOC_MMAP_THRESHOLD_ (or other M_*) fixes it.
 *
 * RSS_TRACE_ALLOCS=BYTES also writes RSS_TRACE.PID.allocs: one line per
 * malloc/posix_memalign/memalign of at least BYTES and per free of such a
 * block, in order: "a|f chunk_bytes address mmapped thread", where thread is
 * 0 for the process's first thread and 1 for any other. RSS_TRACE_BT=1 adds
 * to each allocation the mangled names of the callers that name an ATen
 * operator (at::_ops::NAME::call), innermost first: which op made the block;
 * RSS_TRACE_BT=2 the names of the first 8 named callers, whatever they are;
 * RSS_TRACE_BT_MAX=BYTES only for blocks up to that size. calloc and realloc
 * are logged too (realloc as a free and an allocation).
 *
 * RSS_TRACE.PID.thr: the dynamic threshold's moves, one line each as free()
 * makes it, "t_ms rss_kib threshold_kib" (the first line: its value when the
 * constructor ran), so its value at a process's baseline RSS can be read
 * (bench/research/mmap-threshold.sh); RSS_TRACE_THR_BT=1 adds after each
 * the callers of the free() that moved it (backtrace_symbols_fd's lines). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int trace_fd = -1;
static int thr_fd = -1;
static size_t mmap_threshold = 128 * 1024;
static void log_threshold(void);

static int allocs_fd = -1;
static size_t allocs_min;
static pid_t main_tid;
static int with_backtrace;
static size_t bt_max = (size_t)-1; /* RSS_TRACE_BT_MAX: only blocks up to this size */
static __thread int in_backtrace;

/* " op1 op2": the at::_ops:: operators on the stack, innermost first. */
static int ops_on_stack(char *out, size_t room)
{
    void *frames[48];
    size_t used = 0;
    out[0] = 0;
    if (in_backtrace)
        return 0;
    in_backtrace = 1;
    int n = backtrace(frames, 48);
    for (int i = 2; i < n && used + 80 < room; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_sname)
            continue;
        if (with_backtrace == 2) { /* RSS_TRACE_BT=2: every named caller, up to 8 */
            if (i > 9)
                break;
            used += (size_t)snprintf(out + used, room - used, " %.70s", info.dli_sname);
            continue;
        }
        const char *ops = strstr(info.dli_sname, "2at4_ops");
        if (!ops || !strstr(ops, "4call"))
            continue;
        ops += strlen("2at4_ops");
        char *end;
        long len = strtol(ops, &end, 10);
        if (len <= 0 || len > 60)
            continue;
        used += (size_t)snprintf(out + used, room - used, " %.*s", (int)len, end);
    }
    in_backtrace = 0;
    return (int)used;
}

void __libc_free(void *);
void *__libc_malloc(size_t);
void *__libc_memalign(size_t, size_t);

static void log_block(char op, void *p)
{
    size_t word = ((size_t *)p)[-1], size = word & ~(size_t)7;
    if (allocs_fd < 0 || size < allocs_min)
        return;
    char line[600], ops[480] = "";
    if (op == 'a' && with_backtrace && size <= bt_max)
        ops_on_stack(ops, sizeof ops);
    int n = snprintf(line, sizeof line, "%c %zu %p %d %d%s\n", op, size, p, (int)((word >> 1) & 1),
                     gettid() != main_tid, ops);
    if (write(allocs_fd, line, (size_t)n) < 0)
        allocs_fd = -1;
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    if (p && n >= allocs_min && allocs_fd >= 0)
        log_block('a', p);
    return p;
}

void *memalign(size_t align, size_t n)
{
    void *p = __libc_memalign(align, n);
    if (p && n >= allocs_min && allocs_fd >= 0)
        log_block('a', p);
    return p;
}

void *aligned_alloc(size_t align, size_t n) { return memalign(align, n); }

void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);

void *calloc(size_t k, size_t n)
{
    void *p = __libc_calloc(k, n);
    if (p && allocs_fd >= 0)
        log_block('a', p);
    return p;
}

void *realloc(void *old, size_t n)
{
    if (old && allocs_fd >= 0)
        log_block('f', old);
    void *p = __libc_realloc(old, n);
    if (p && allocs_fd >= 0)
        log_block('a', p);
    return p;
}

#include "preload_posix_memalign.h"

/* glibc's free with the dynamic threshold followed: a chunk's size word sits
 * just below its memory, bit 1 (IS_MMAPPED) set for an mmapped one. */
void free(void *p)
{
    if (p) {
        if (allocs_fd >= 0)
            log_block('f', p);
        size_t word = ((size_t *)p)[-1];
        size_t size = word & ~(size_t)7;
        if ((word & 2) && size > mmap_threshold && size <= (size_t)32 << 20) {
            mmap_threshold = size;
            log_threshold();
        }
    }
    __libc_free(p);
}
static long period_ms = 5;
static struct timespec started;

static long rss_kib(void)
{
    char buf[128];
    int fd = open("/proc/self/statm", O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    long size, resident;
    if (sscanf(buf, "%ld %ld", &size, &resident) != 2)
        return -1;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void log_threshold(void)
{
    if (thr_fd < 0)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = (double)(now.tv_sec - started.tv_sec) * 1e3 + (double)(now.tv_nsec - started.tv_nsec) / 1e6;
    char line[96];
    int n = snprintf(line, sizeof line, "%.1f %ld %zu\n", t, rss_kib(), mmap_threshold >> 10);
    if (write(thr_fd, line, (size_t)n) < 0)
        thr_fd = -1;
    if (thr_fd >= 0 && getenv("RSS_TRACE_THR_BT")) { /* the free()'s callers, one per line */
        void *frames[24];
        backtrace_symbols_fd(frames, backtrace(frames, 24), thr_fd);
    }
}

/* RSS_TRACE_INFO_KIB=N: once RSS first reaches N KiB, malloc_info()'s XML
 * (each arena's free chunks by size) goes to RSS_TRACE.PID.info. */
static void info_once(long rss)
{
    static int done;
    const char *at = getenv("RSS_TRACE_INFO_KIB");
    if (done || !at || rss < atol(at))
        return;
    done = 1;
    char name[4096];
    snprintf(name, sizeof name, "%s.%ld.info", getenv("RSS_TRACE"), (long)getpid());
    FILE *f = fopen(name, "w");
    if (f) {
        malloc_info(0, f);
        fclose(f);
    }
}

static void *sampler(void *arg)
{
    (void)arg;
    struct timespec nap = {period_ms / 1000, (period_ms % 1000) * 1000000L}, now;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        double t = (double)(now.tv_sec - started.tv_sec) * 1e3 + (double)(now.tv_nsec - started.tv_nsec) / 1e6;
        struct mallinfo2 m = mallinfo2();
        info_once(rss_kib());
        char line[256];
        int n = snprintf(line, sizeof line, "%.1f %ld %zu %zu %zu %zu %zu %zu\n", t, rss_kib(), m.arena >> 10,
                         m.hblkhd >> 10, m.uordblks >> 10, m.fordblks >> 10, m.keepcost >> 10,
                         mmap_threshold >> 10);
        if (write(trace_fd, line, (size_t)n) < 0)
            return NULL;
        nanosleep(&nap, NULL);
    }
    return NULL;
}

__attribute__((constructor)) static void rss_trace_start(void)
{
    /* RSS_TRACE_RAISE=BYTES: one mmapped block of that size made and freed,
     * which raises glibc's dynamic mmap threshold to it (an experiment). */
    if (getenv("RSS_TRACE_RAISE"))
        free(__libc_malloc((size_t)atol(getenv("RSS_TRACE_RAISE"))));
    const char *path = getenv("RSS_TRACE");
    if (!path || !*path)
        return;
    if (getenv("RSS_TRACE_MS"))
        period_ms = atol(getenv("RSS_TRACE_MS")) > 0 ? atol(getenv("RSS_TRACE_MS")) : 5;
    char name[4096];
    snprintf(name, sizeof name, "%s.%ld", path, (long)getpid());
    trace_fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (trace_fd < 0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &started);
    snprintf(name, sizeof name, "%s.%ld.thr", path, (long)getpid());
    thr_fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    log_threshold();
    if (getenv("RSS_TRACE_ALLOCS")) {
        allocs_min = (size_t)atol(getenv("RSS_TRACE_ALLOCS"));
        main_tid = gettid();
        with_backtrace = getenv("RSS_TRACE_BT") ? atoi(getenv("RSS_TRACE_BT")) == 2 ? 2 : 1 : 0;
        if (getenv("RSS_TRACE_BT_MAX"))
            bt_max = (size_t)atol(getenv("RSS_TRACE_BT_MAX"));
        snprintf(name, sizeof name, "%s.%ld.allocs", path, (long)getpid());
        allocs_fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    if (pthread_create(&th, &attr, sampler, NULL) == 0)
        pthread_detach(th);
    pthread_attr_destroy(&attr);
}
