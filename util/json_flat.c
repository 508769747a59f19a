/* json_flat.c: a small recursive-descent JSON scanner; strict about syntax
 * so a damaged config file is reported, not half-read. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "util/json_flat.h"

struct scanner {
    const char *p;
    const char *start;
    char *err;
    size_t errlen;
    int failed;
};

static int line_of(const struct scanner *s)
{
    int line = 1;
    for (const char *c = s->start; c < s->p; c++)
        line += *c == '\n';
    return line;
}

static void fail(struct scanner *s, const char *what)
{
    if (!s->failed)
        snprintf(s->err, s->errlen, "line %d: %s", line_of(s), what);
    s->failed = 1;
}

static void space(struct scanner *s)
{
    while (isspace((unsigned char)*s->p))
        s->p++;
}

/* Copies a string's contents (escapes kept as the escaped character). */
static void string(struct scanner *s, char *out, size_t size)
{
    size_t n = 0;
    s->p++; /* opening quote */
    while (*s->p && *s->p != '"') {
        if (*s->p == '\\' && s->p[1])
            s->p++;
        if (n + 1 < size)
            out[n++] = *s->p;
        s->p++;
    }
    out[n] = '\0';
    if (*s->p != '"')
        return fail(s, "unterminated string");
    s->p++;
}

static void value(struct scanner *s, char *out, size_t size, int *is_string);

static void container(struct scanner *s, char close)
{
    char scratch[256];
    int dummy;
    s->p++;
    space(s);
    while (!s->failed && *s->p != close) {
        if (close == '}') {
            space(s);
            if (*s->p != '"')
                return fail(s, "expected a member name");
            string(s, scratch, sizeof scratch);
            space(s);
            if (*s->p++ != ':')
                return fail(s, "expected ':'");
        }
        value(s, scratch, sizeof scratch, &dummy);
        space(s);
        if (*s->p == ',')
            s->p++;
        else if (*s->p != close)
            return fail(s, "expected ',' or the end of a container");
        space(s);
    }
    if (*s->p == close)
        s->p++;
}

static void value(struct scanner *s, char *out, size_t size, int *is_string)
{
    space(s);
    *is_string = 0;
    out[0] = '\0';
    if (*s->p == '"') {
        *is_string = 1;
        return string(s, out, size);
    }
    if (*s->p == '{' || *s->p == '[')
        return container(s, *s->p == '{' ? '}' : ']');
    size_t n = 0;
    while (*s->p && (isalnum((unsigned char)*s->p) || strchr("+-.", *s->p))) {
        if (n + 1 < size)
            out[n++] = *s->p;
        s->p++;
    }
    out[n] = '\0';
    if (n == 0)
        fail(s, "expected a value");
}

int json_flat_read(const char *text, json_member_fn on_member, void *ctx, char *err, size_t errlen)
{
    struct scanner s = {text, text, err, errlen, 0};
    char key[256], val[1024];
    space(&s);
    if (*s.p != '{') {
        fail(&s, "expected a JSON object");
        return -1;
    }
    s.p++;
    for (space(&s); !s.failed && *s.p != '}'; space(&s)) {
        if (*s.p != '"') {
            fail(&s, "expected a member name");
            break;
        }
        string(&s, key, sizeof key);
        space(&s);
        if (*s.p++ != ':') {
            fail(&s, "expected ':'");
            break;
        }
        int is_string;
        char first = (space(&s), *s.p);
        value(&s, val, sizeof val, &is_string);
        if (!s.failed && first != '{' && first != '[')
            on_member(key, val, is_string, ctx);
        space(&s);
        if (*s.p == ',')
            s.p++;
        else if (*s.p != '}')
            fail(&s, "expected ',' or '}'");
    }
    return s.failed ? -1 : 0;
}
