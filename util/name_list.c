/* name_list.c: names joined with ", " into a fixed buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "util/name_list.h"

void name_list_start(struct name_list *l, char *buf, size_t size)
{
    *l = (struct name_list){.buf = buf, .size = size};
    if (size)
        buf[0] = '\0';
}

int name_list_full(const struct name_list *l) { return l->used >= l->size; }

void name_list_addf(struct name_list *l, const char *fmt, ...)
{
    if (!name_list_full(l) && l->n) {
        int w = snprintf(l->buf + l->used, l->size - l->used, ", ");
        l->used += w > 0 ? (size_t)w : 0;
    }
    if (!name_list_full(l)) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(l->buf + l->used, l->size - l->used, fmt, ap);
        va_end(ap);
        l->used += w > 0 ? (size_t)w : 0;
    }
    l->n++;
}

void name_list_add(struct name_list *l, const char *name) { name_list_addf(l, "%s", name); }

int name_list_has(const struct name_list *l, const char *name)
{
    size_t n = strlen(name);
    for (const char *at = strstr(l->buf, name); at; at = strstr(at + 1, name))
        if ((at == l->buf || (at - l->buf >= 2 && at[-2] == ',')) && (at[n] == ',' || at[n] == '\0'))
            return 1;
    return 0;
}

const char *names_joined(char *buf, size_t size, const char *(*name_at)(int i), int count)
{
    struct name_list l;
    name_list_start(&l, buf, size);
    for (int i = 0; i < count && !name_list_full(&l); i++)
        name_list_add(&l, name_at(i));
    return buf;
}
