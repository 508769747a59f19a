/* platform.h: the one seam between the process layer and the system under
 * it (libuv's uv__ functions over src/unix/linux.c and darwin.c). Linux's
 * half, platform_linux.c, reads /proc and calls prctl and
 * sched_setaffinity; macOS's, platform_darwin.c, calls libproc, sysctl and
 * kqueue. The Makefile compiles the half of the system it builds for; the
 * rest of proc/ is written once against these functions and never reads
 * /proc or includes a system's own header (tests/platform_seam_test.sh).
 * Only proc/'s own files include this header. docs/measurement.md says what
 * each figure is on each system. */
#ifndef PEAKFIT_PLATFORM_H
#define PEAKFIT_PLATFORM_H
#include <stddef.h>
#include <sys/types.h>

struct proc_cores; /* proc/cores.h */

/* pid's memory now, in KiB (pid 0: this process), or -1: Linux's VmRSS
 * (resident pages), macOS's phys_footprint. */
long platform_rss_kib(pid_t pid);
/* The same, from the file the tree walk reads (Linux: /proc/PID/statm,
 * the same counter as VmRSS); 0 when the process is gone. */
long platform_tree_rss_kib(pid_t pid);
/* What pid holds alone, in KiB: Linux's Private_Clean + Private_Dirty
 * (smaps_rollup), its RSS where that cannot be read; macOS's
 * phys_footprint, which counts no shared clean page anyway. 0 when gone. */
long platform_private_kib(pid_t pid);
/* This process's own peak, in KiB, or -1: Linux's VmHWM, macOS's
 * lifetime_max_phys_footprint. */
long platform_peak_kib(void);
/* Starts this process's peak afresh from now: 0, or -1 where the system
 * cannot (macOS: the lifetime peak counts from exec). */
int platform_peak_restart(void);
/* Writes pid's children into pids, at most max; their count. */
int platform_children(pid_t pid, pid_t *pids, int max);
/* pid's environment (NAME=VALUE strings, each ended by a NUL) into buf;
 * its length, or -1 when it cannot be read. */
long platform_environ(pid_t pid, char *buf, size_t size);
/* The host's memory in KiB, or -1 (proc_stats.h says what each is). */
long platform_memory_total_kib(void);
long platform_memory_available_kib(void);
void platform_cpu_model(char *out, size_t size);
/* The path of this process's executable: 0, or -1 with errno. */
int platform_self_path(char *out, size_t size);
/* Makes this process the one that the processes below it that lose their
 * parent go to: 0, or -1 (errno). macOS has no such thing: 0, and they go
 * to launchd (docs/measurement.md). */
int platform_adopt_orphans(void);
/* Called in a child between fork and exec: the child is killed when
 * parent ends. 0, or -1 when parent has already ended. */
int platform_die_with_parent(pid_t parent);
/* A pipe whose ends close at exec: 0, or -1 (errno). Linux makes it so at
 * once (pipe2); macOS has no pipe2 before macOS 27, and sets each end's
 * flag after (no other thread of the runner forks meanwhile). */
int platform_pipe_cloexec(int fds[2]);
/* The cores this process may run on, into cores (at most max); the count. */
int platform_cores(int *cores, int max);
/* Pins this process to set: 0, or -1 (errno). macOS has no affinity: 0. */
int platform_pin(const struct proc_cores *set);
/* The folder with one entry per NVIDIA GPU, or NULL where there is none. */
const char *platform_gpu_driver_dir(void);
#endif
