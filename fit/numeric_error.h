/* numeric_error.h: GSL's errors as peakfit's. GSL's default handler
 * aborts the process (a crafted fit.json once ended calc with "Default GSL
 * error handler invoked", exit 134); peakfit's main replaces it at
 * start-up with one that records the error, so the function that failed
 * returns its NAN and the command says what went wrong, with its file. */
#ifndef PEAKFIT_NUMERIC_ERROR_H
#define PEAKFIT_NUMERIC_ERROR_H
#include <stddef.h>

/* Replaces GSL's default handler: once, before any statistics. */
void numeric_error_install(void);
/* 1 with GSL's first error since the last call in out ("x too large to
 * extract fraction part (gamma.c:1249)"), and forgets it; else 0. */
int numeric_error_take(char *out, size_t size);
#endif
