/* device.h: the device names a sweep may use, checked without libtorch
 * (whether this build of libtorch has one is the runner's question). */
#ifndef PEAKFIT_DEVICE_H
#define PEAKFIT_DEVICE_H
#include <stddef.h>

/* cpu, cuda, cuda:N (N = 0 .. 999), mps. */
int device_name_is_known(const char *name);
/* 1 for a GPU (cuda, cuda:N, mps): its memory is the device's, measured
 * by its caching allocator; 0 for cpu and unknown names. */
int device_is_gpu(const char *name);
/* "cpu, cuda, cuda:N, mps", for messages. */
const char *device_names(void);

/* 0 for a known name, or -1 with "DISPLAY must be one of cpu, ..., not
 * \"NAME\"" in why: a command line's --device and a sweep's device alike. */
int device_name_check(const char *display, const char *name, char *why, size_t size);

struct opt_row;
/* An OPT_CUSTOM setter (util/options.h): a known device name into the
 * row's const char * field. */
int device_option_set(const struct opt_row *row, const char *display, const char *value, void *target,
                      void *ctx, char *why, size_t size);
#endif
