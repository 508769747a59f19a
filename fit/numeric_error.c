/* numeric_error.c: a GSL error handler that records instead of aborting. */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include "fit/numeric_error.h"

/* The first error since the last numeric_error_take: the first is the
 * cause, what follows from its NAN is not. */
static char first[256];
static int pending;

static void record(const char *reason, const char *file, int line, int gsl_errno)
{
    (void)gsl_errno;
    if (pending)
        return;
    snprintf(first, sizeof first, "%.180s (%.40s:%d)", reason, file, line);
    pending = 1;
}

void numeric_error_install(void) { gsl_set_error_handler(record); }

int numeric_error_take(char *out, size_t size)
{
    if (!pending)
        return 0;
    snprintf(out, size, "%s", first);
    pending = 0;
    return 1;
}
