/* sweep_freeze.c: a sweep's text with its relative paths resolved. The
 * lines are those sweep_parse.c reads: `key = value` with a comment after
 * white space; a path key is one whose setter resolves paths. */
#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "models/model_spec.h"
#include "sweeps/sweep_freeze.h"
#include "sweeps/sweep_keys.h"
#include "sweeps/sweep_parser.h"
#include "sweeps/sweep_setters.h"
#include "sweeps/sweep_write.h"

static int is_path_key(const struct opt_row *k) { return k && (k->set == sweep_set_model || k->set == sweep_set_weights); }

/* One item of the value, trimmed: base/item where that names something
 * and reads back as itself (sweep_write.h's rule: base may hold a comma or
 * " #"), else as written (a preset, a Hub id, an absolute path, a missing
 * file that the parse reports as before). */
static void write_item(FILE *out, const char *base, const struct opt_row *k, const char *item, size_t n)
{
    int path_only = !(k->flags & OPT_LIST);
    while (n && isspace((unsigned char)*item))
        item++, n--;
    while (n && isspace((unsigned char)item[n - 1]))
        n--;
    char text[PATH_MAX], joined[2 * PATH_MAX + 2];
    struct stat st;
    snprintf(text, sizeof text, "%.*s", (int)n, item);
    int relative = n && n < sizeof text && text[0] != '/' && (path_only || model_spec_is_path(text));
    snprintf(joined, sizeof joined, "%s/%s", base, text);
    int resolved = relative && stat(joined, &st) == 0 && !sweep_value_misread(k, joined);
    fputs(resolved ? joined : text, out);
}

/* A path key's line: key = items (a list for model), then the comment. */
static void write_path_line(FILE *out, const char *base, const struct opt_row *k, const char *line, size_t n)
{
    const char *eq = memchr(line, '=', n), *v = eq + 1;
    size_t vn = sweep_comment_at(v, n - (size_t)(v - line)), at = 0;
    fprintf(out, "%.*s= ", (int)(eq - line), line);
    int list = (k->flags & OPT_LIST) != 0;
    while (at <= vn) {
        size_t end = at;
        while (end < vn && !(list && v[end] == ','))
            end++;
        write_item(out, base, k, v + at, end - at);
        if (end < vn)
            fputs(", ", out);
        at = end + 1;
    }
    if (vn < n - (size_t)(v - line))
        fprintf(out, " %.*s", (int)(n - (size_t)(v - line) - vn), v + vn);
}

/* The key of a `key = value` line, or NULL. */
static const struct opt_row *key_of(const char *line, size_t n)
{
    const char *eq = memchr(line, '=', n);
    char key[64];
    if (!eq)
        return NULL;
    const char *k = line;
    while (k < eq && isspace((unsigned char)*k))
        k++;
    size_t kn = (size_t)(eq - k);
    while (kn && isspace((unsigned char)k[kn - 1]))
        kn--;
    if (kn == 0 || kn >= sizeof key || *k == '#' || *k == ';' || *k == '[')
        return NULL;
    snprintf(key, sizeof key, "%.*s", (int)kn, k);
    return sweep_key_find(key);
}

int sweep_freeze(const char *sweep_path, const char *text, size_t len, FILE *out)
{
    char dir[PATH_MAX], *base;
    snprintf(dir, sizeof dir, "%s", sweep_path);
    if (!(base = realpath(dirname(dir), NULL)))
        return fwrite(text, 1, len, out) == len ? 0 : -1; /* no directory to resolve against: as it is */
    for (size_t at = 0; at < len;) {
        const char *line = text + at, *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        const struct opt_row *k = key_of(line, n);
        if (is_path_key(k))
            write_path_line(out, base, k, line, n - (n && line[n - 1] == '\r'));
        else
            fwrite(line, 1, n, out);
        if (nl)
            fputc('\n', out);
        at += n + (nl != NULL);
    }
    free(base);
    return ferror(out) ? -1 : 0;
}
