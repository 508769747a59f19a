/* proc_stats.h: facts about this process and host, read from /proc. */
#ifndef PEAKFIT_PROC_STATS_H
#define PEAKFIT_PROC_STATS_H
#include <stddef.h>

/* A "Vm..." field of /proc/self/status (VmRSS, VmHWM, VmSize) in KiB, or
 * -1. VmHWM is this process's own peak RSS: unlike ru_maxrss it starts
 * afresh at exec. */
long proc_status_kib(const char *field);
/* The same for another process (pid > 0). */
long proc_status_kib_of(int pid, const char *field);
/* A field of /proc/meminfo (MemAvailable, MemTotal) in KiB, or -1. */
long meminfo_kib(const char *field);
void host_cpu_model(char *out, size_t size);
/* The library that serves sgemm_ in this process (resolved path), or "none". */
void blas_library(char *out, size_t size);
/* OpenBLAS's thread count, or -1 when serving (what blas_library said)
 * is not OpenBLAS. */
int blas_threads(const char *serving);
#endif
