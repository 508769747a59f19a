/* parse.h: strict conversions of user text to numbers. Each returns 0 on
 * success and -1 when the whole string is not a valid value in range. */
#ifndef PEAKFIT_PARSE_H
#define PEAKFIT_PARSE_H
#include <stddef.h>
#include <stdint.h>

/* The characters of a name that stands in point ids and file names: a
 * job's, a model's or a technique's label. */
#define SAFE_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+"

int parse_long(const char *text, long min, long max, long *out);
int parse_double(const char *text, double min, double max, double *out);
/* The shortest %g text of v that strtod reads back as v (0.1 as "0.1",
 * not %.17g's "0.10000000000000001"; 90 as "90", not "9e+01"), in buf;
 * returns buf. */
const char *double_text(double v, char *buf, size_t size);
/* "512MiB", "24GiB", "1.5GB", "4096" (bytes); binary and decimal units. */
int parse_bytes(const char *text, int64_t *out);
/* The unit a size was written in, by its name ("GB" for "0.5gb", "GiB"
 * for "2G", "MiB" when none can be read), its bytes in factor. */
const char *bytes_unit(const char *text, double *factor);
/* "90", "90s", "15m", "2h" -> seconds. */
int parse_seconds(const char *text, double *out);

/* Removes leading and trailing white space in place; returns text. */
char *trim(char *text);
/* Splits text at commas into at most max trimmed items (pointers into
 * text); returns the count, or -1 when there are more than max or an item
 * is empty. */
int split_list(char *text, char **items, int max);
/* The same at another separator (LoRA's target sets: `q,v | all`). */
int split_list_at(char *text, char separator, char **items, int max);
#endif
