/* platform_linux.h: the parsers of Linux's half of the process layer
 * (platform_linux.c), pure functions of a file's text, declared here so
 * that the unit tests check them on any text (tests/platform_parse_test.c). */
#ifndef PEAKFIT_PLATFORM_LINUX_H
#define PEAKFIT_PLATFORM_LINUX_H
#include <stddef.h>

/* The value in KiB of "FIELD: N kB" lines (/proc/PID/status,
 * /proc/meminfo): the last such line's, or -1 when none. */
long linux_field_kib(const char *text, const char *field);
/* The parent pid in the text of /proc/PID/stat (after the ")" that ends
 * its name, which may hold spaces and parentheses), or -1. */
int linux_stat_parent(const char *text);
/* Private_Clean + Private_Dirty of /proc/PID/smaps_rollup's text in KiB,
 * or -1 unless both are there. */
long linux_private_kib(const char *text);
/* The value of "model name" in /proc/cpuinfo's text into out; 0, or -1
 * (none: out is left as it was). */
int linux_cpu_model(const char *text, char *out, size_t size);
#endif
