/* input_file.c: fstat on the opened descriptor, so the check and the read
 * are about the same file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/input_file.h"

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "is a directory, not a file";
    if (S_ISFIFO(mode)) return "is a FIFO, not a regular file";
    if (S_ISCHR(mode)) return "is a character device, not a regular file";
    if (S_ISBLK(mode)) return "is a block device, not a regular file";
    if (S_ISSOCK(mode)) return "is a socket, not a regular file";
    return "is not a regular file";
}

FILE *input_file_open(const char *path, const char *what, long long max_bytes, char *err, size_t errlen)
{
    const char *sep = what[0] ? " " : "";
    struct stat st;
    /* stat first: opening a FIFO for reading would block until a writer came. */
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open%s%s: %s", path, sep, what, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: %s", path, kind_of(st.st_mode));
        return NULL;
    }
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(err, errlen, "%s: cannot open%s%s: %s", path, sep, what, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: %s", path, kind_of(st.st_mode));
        fclose(in);
        return NULL;
    }
    if (max_bytes > 0 && st.st_size > max_bytes) {
        snprintf(err, errlen, "%s: is larger than %lld bytes (%lld): not a %s", path, max_bytes,
                 (long long)st.st_size, what[0] ? what : "file peakfit reads");
        fclose(in);
        return NULL;
    }
    return in;
}

char *input_file_read(const char *path, const char *what, long long max_bytes, size_t *len, char *err,
                      size_t errlen)
{
    FILE *in = input_file_open(path, what, max_bytes, err, errlen);
    if (!in)
        return NULL;
    size_t cap = 4096, n = 0;
    char *text = malloc(cap + 1);
    for (;;) {
        if (!text) {
            snprintf(err, errlen, "%s: out of memory reading it", path);
            break;
        }
        n += fread(text + n, 1, cap - n, in);
        if (n < cap)
            break;
        /* The file grew after the size check: the bound still holds. */
        if (max_bytes > 0 && (long long)cap >= max_bytes) {
            snprintf(err, errlen, "%s: is larger than %lld bytes", path, max_bytes);
            free(text);
            text = NULL;
            break;
        }
        char *bigger = realloc(text, 2 * cap + 1);
        if (!bigger)
            free(text);
        text = bigger;
        cap *= 2;
    }
    if (text && ferror(in)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        free(text);
        text = NULL;
    }
    fclose(in);
    if (text) {
        text[n] = '\0';
        if (len)
            *len = n;
    }
    return text;
}

size_t input_file_bom(const char *text) { return strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; }
