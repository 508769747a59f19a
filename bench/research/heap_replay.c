/* bench/research/heap_replay.c: an LD_PRELOAD that replays, at load, the
 * malloc calls bench/research/heap_log.c wrote for another process (its
 * requests, sizes, alignments and which block each free frees; not its
 * addresses), so that this process's main heap starts from the same sequence
 * (#19, README 9: does the Python process's heap before its baseline decide
 * its RSS at the peak?). The blocks live at the log's end stay live.
 *   cc -O2 -shared -fPIC -o heap_replay.so bench/research/heap_replay.c
 *   HEAP_REPLAY=FILE [HEAP_REPLAY_LINES=N] LD_PRELOAD=$PWD/heap_replay.so CMD...
 * HEAP_REPLAY_LINES: only the log's first N lines. HEAP_REPLAY_TOUCH=1: each
 * block written when made (its pages resident, as the process's were), and at
 * the end "heap_replay: lines L rss_at_mark_kib R hwm_kib H" on stderr, R the
 * VmRSS after line HEAP_REPLAY_MARK, H the VmHWM (a whole run replayed in a
 * bare process: `HEAP_REPLAY=LOG HEAP_REPLAY_TOUCH=1 LD_PRELOAD=... /bin/true`).
 * A free or realloc of a block the log did not allocate (made before the
 * logger loaded, or on another thread) is skipped. The table of blocks is
 * mmapped, outside the heap. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SLOTS ((size_t)1 << 22) /* open addressing, linear probing */

struct slot { uintptr_t key; void *ptr; };
static struct slot *table;
static int touch;

static void *made(void *p, size_t n)
{
    if (touch && p)
        memset(p, 1, n);
    return p;
}

/* FIELD's value in /proc/self/status, kB */
static long status_kib(const char *field)
{
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    const char *at = strstr(buf, field);
    return at ? atol(at + strlen(field)) : -1;
}

static size_t home(uintptr_t key) { return (size_t)((key >> 4) * 0x9E3779B97F4A7C15ull >> 42) & (SLOTS - 1); }

static void put(uintptr_t key, void *ptr)
{
    size_t i = home(key);
    while (table[i].key && table[i].key != key)
        i = (i + 1) & (SLOTS - 1);
    table[i].key = key;
    table[i].ptr = ptr;
}

/* take KEY: its block, removed from the table (backward-shift deletion), or NULL */
static void *take(uintptr_t key)
{
    size_t i = home(key);
    while (table[i].key && table[i].key != key)
        i = (i + 1) & (SLOTS - 1);
    if (!table[i].key)
        return NULL;
    void *ptr = table[i].ptr;
    for (size_t j = (i + 1) & (SLOTS - 1); table[j].key; j = (j + 1) & (SLOTS - 1)) {
        size_t h = home(table[j].key);
        if (((j - h) & (SLOTS - 1)) >= ((j - i) & (SLOTS - 1))) {
            table[i] = table[j];
            i = j;
        }
    }
    table[i].key = 0;
    return ptr;
}

static uintptr_t field(const char **s)
{
    char *end;
    uintptr_t v = (uintptr_t)strtoull(*s, &end, 0);
    *s = end;
    return v;
}

/* one log line at S: its call made here */
static void replay_line(const char *s)
{
    char op = *s++;
    uintptr_t a = field(&s), b, c;
    switch (op) {
    case 'm': b = field(&s); put(b, made(malloc(a), a)); break;
    case 'c': b = field(&s); put(b, made(calloc(1, a), a)); break;
    case 'a': b = field(&s); c = field(&s); put(c, made(memalign(a, b), b)); break;
    case 'f': free(take(a)); break;
    case 'r': {
        b = field(&s); c = field(&s);
        void *old = a ? take(a) : NULL;
        if (a && !old)
            break; /* a block this log did not make */
        put(c, made(realloc(old, b), b));
        break;
    }
    }
}

__attribute__((constructor)) static void heap_replay_start(void)
{
    const char *path = getenv("HEAP_REPLAY");
    if (!path || !*path)
        return;
    long max_lines = getenv("HEAP_REPLAY_LINES") ? atol(getenv("HEAP_REPLAY_LINES")) : -1;
    long mark = getenv("HEAP_REPLAY_MARK") ? atol(getenv("HEAP_REPLAY_MARK")) : 0, line = 0, rss_at_mark = -1;
    touch = getenv("HEAP_REPLAY_TOUCH") && atoi(getenv("HEAP_REPLAY_TOUCH"));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0)
        return;
    const char *text = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    table = mmap(NULL, SLOTS * sizeof *table, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (text == MAP_FAILED || table == MAP_FAILED)
        return;
    const char *end = text + st.st_size;
    for (const char *s = text; s < end && max_lines != 0; max_lines--) {
        const char *nl = s;
        while (nl < end && *nl != '\n')
            nl++;
        if (nl == end)
            break; /* a last line without its newline */
        replay_line(s);
        s = nl + 1;
        if (++line == mark)
            rss_at_mark = status_kib("VmRSS:");
    }
    munmap((void *)text, (size_t)st.st_size);
    munmap(table, SLOTS * sizeof *table);
    if (touch)
        fprintf(stderr, "heap_replay: lines %ld rss_at_mark_kib %ld hwm_kib %ld\n", line, rss_at_mark,
                status_kib("VmHWM:"));
}
