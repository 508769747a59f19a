/* proc_stats.h: facts about this process, another one, and the host, from
 * the system (proc/platform.h; docs/measurement.md says what each is on
 * Linux and on macOS). */
#ifndef PEAKFIT_PROC_STATS_H
#define PEAKFIT_PROC_STATS_H
#include <stddef.h>

/* A process's memory now in KiB (pid 0: this one), or -1: Linux's VmRSS,
 * macOS's phys_footprint. */
long proc_rss_kib(int pid);
/* This process's own peak in KiB, or -1: Linux's VmHWM (unlike ru_maxrss
 * it starts afresh at exec), macOS's lifetime_max_phys_footprint. */
long proc_peak_kib(void);
/* Starts the peak afresh from the memory now (Linux >= 4.0), so that it is
 * what came after, not a transient of start-up: 0, or -1 where the system
 * cannot (macOS), and the peak is still an upper bound. */
int proc_peak_restart(void);

enum host_memory {
    HOST_MEMORY_TOTAL,     /* Linux's MemTotal; macOS's hw.memsize */
    HOST_MEMORY_AVAILABLE, /* Linux's MemAvailable; macOS's free, inactive and purgeable pages */
};
/* The host's memory in KiB, or -1. */
long host_memory_kib(enum host_memory which);
void host_cpu_model(char *out, size_t size);
/* The library that serves sgemm_ in this process (resolved path), or "none". */
void blas_library(char *out, size_t size);
/* OpenBLAS's thread count, or -1 when serving (what blas_library said)
 * is not OpenBLAS. */
int blas_threads(const char *serving);
#endif
