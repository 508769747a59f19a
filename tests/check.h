/* check.h: the C tests' one assertion. */
#ifndef PEAKFIT_CHECK_H
#define PEAKFIT_CHECK_H
#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,    \
                    __LINE__, #cond);                                 \
            fprintf(stderr, __VA_ARGS__);                             \
            fprintf(stderr, "\n");                                    \
            check_failures++;                                         \
        }                                                             \
    } while (0)

#define CHECK_DONE() return check_failures ? 1 : 0
#endif
