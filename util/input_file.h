/* input_file.h: opening a file that peakfit reads as input. Only regular
 * files are accepted (a FIFO would hang, /dev/zero never ends), and whole
 * reads are bounded, so a hostile path is refused with a sentence rather
 * than read until memory runs out. */
#ifndef PEAKFIT_INPUT_FILE_H
#define PEAKFIT_INPUT_FILE_H
#include <stdio.h>
#include <stddef.h>

/* Opens path for reading if it is a regular file of at most max_bytes
 * (0: no size limit). Returns the stream, or NULL with
 * "PATH: why" in err: "cannot open: No such file or directory",
 * "is a directory, not a file", "is a FIFO, not a regular file", "is
 * larger than N bytes". what names the file's role in the message, e.g.
 * "sweep file" ("PATH: cannot open sweep file: ..."); it may be "". */
FILE *input_file_open(const char *path, const char *what, long long max_bytes, char *err, size_t errlen);

/* Reads the whole of such a file into a NUL-terminated buffer to free().
 * Returns it (with its length in *len when len is not NULL), or NULL with
 * err set as above ("PATH: cannot read: ..." for a read error). */
char *input_file_read(const char *path, const char *what, long long max_bytes, size_t *len, char *err,
                      size_t errlen);
/* The length of a UTF-8 byte order mark at the start of text (3), or 0.
 * The one rule for every text file peakfit reads (sweeps, config.json):
 * a mark, as some editors write, is skipped, never taken for text. */
size_t input_file_bom(const char *text);
#endif
