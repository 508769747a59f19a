/* clock.h: seconds on the monotonic clock, for step times and deadlines. */
#ifndef PEAKFIT_CLOCK_H
#define PEAKFIT_CLOCK_H
#include <time.h>

static inline double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
#endif
