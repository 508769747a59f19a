/* output_file.c: temporary file, fsync, rename. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "util/output_file.h"

static int fail(struct output_file *out, int saved_errno, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: cannot write: %s", out->path, strerror(saved_errno));
    output_file_abandon(out);
    return -1;
}

int output_file_open(struct output_file *out, const char *path, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (strlen(path) >= sizeof out->path) {
        snprintf(err, errlen, "%.200s...: cannot write: path is longer than %zu bytes", path, sizeof out->path - 1);
        return -1;
    }
    snprintf(out->path, sizeof out->path, "%s", path);
    snprintf(out->tmp, sizeof out->tmp, "%s.tmp.%ld", path, (long)getpid());
    out->f = fopen(out->tmp, "w");
    if (!out->f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int output_file_commit(struct output_file *out, char *err, size_t errlen)
{
    if (fflush(out->f) != 0 || ferror(out->f))
        return fail(out, errno ? errno : EIO, err, errlen);
    if (fsync(fileno(out->f)) != 0 && errno != EINVAL)
        return fail(out, errno, err, errlen);
    int rc = fclose(out->f);
    out->f = NULL;
    if (rc != 0)
        return fail(out, errno, err, errlen);
    if (rename(out->tmp, out->path) != 0)
        return fail(out, errno, err, errlen);
    return 0;
}

void output_file_abandon(struct output_file *out)
{
    if (out->f)
        fclose(out->f);
    out->f = NULL;
    if (out->tmp[0])
        unlink(out->tmp);
}
