/* size_arg.c: a unit written apart from its number. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "util/parse.h"
#include "util/size_arg.h"

int size_unit_detached(const char *value, const char *next)
{
    char joined[32];
    int64_t bytes;
    if (!next || !value[0] || strspn(value, "0123456789.") != strlen(value) || !next[0] || strlen(next) > 8 ||
        strpbrk(next, "0123456789."))
        return 0;
    snprintf(joined, sizeof joined, "1%s", next);
    return parse_bytes(joined, &bytes) == 0;
}
