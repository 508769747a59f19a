/* size_arg.h: a size given on the command line with its unit apart
 * (`--budget 24 GiB`): the shell splits it into two arguments, the first a
 * bare number. Commands say so instead of "needs a unit". */
#ifndef PEAKFIT_SIZE_ARG_H
#define PEAKFIT_SIZE_ARG_H

/* 1 when value is a bare number and next (the following argument, or
 * NULL) is a unit such as GiB, MiB, GB or B. */
int size_unit_detached(const char *value, const char *next);
#endif
