/* output_file.h: writing a results file whole or not at all. The text goes
 * to PATH.tmp.PID, is flushed and fsynced, and is renamed over PATH only
 * when every byte was written: a full disk or a read-only directory leaves
 * the old file as it was, never a 0-byte or half-written one. */
#ifndef PEAKFIT_OUTPUT_FILE_H
#define PEAKFIT_OUTPUT_FILE_H
#include <stdio.h>
#include <stddef.h>

struct output_file {
    FILE *f;            /* write here */
    char path[4096];
    char tmp[4200];
};

/* Returns 0, or -1 with "PATH: cannot write: reason" in err. */
int output_file_open(struct output_file *out, const char *path, char *err, size_t errlen);
/* Flushes, fsyncs and renames into place. Returns 0, or -1 with
 * "PATH: cannot write: reason" in err (the temporary file is removed). */
int output_file_commit(struct output_file *out, char *err, size_t errlen);
/* Gives up: closes and removes the temporary file; PATH is untouched. */
void output_file_abandon(struct output_file *out);
#endif
