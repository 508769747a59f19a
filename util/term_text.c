/* term_text.c: text made inert for a terminal (util/term_text.h). */
#include <stdio.h>
#include <string.h>
#include "util/term_text.h"

/* The length of the valid UTF-8 character at p that is no control (2 to
 * 4 bytes; 1 for printable ASCII), or 0: its bytes are to be escaped. */
static size_t shown_length(const unsigned char *p)
{
    unsigned char c = p[0];
    size_t n = c >= 0x20 && c < 0x7f ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if (n == 2 && (c < 0xc2 || (c == 0xc2 && p[1] < 0xa0)))
        return 0; /* an overlong form, or a C1 control */
    return n;
}

const char *term_text(const char *text, char *out, size_t size)
{
    size_t used = 0;
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        char one[8];
        size_t n = shown_length(p), len = n;
        if (n == 1 && *p == '\\')
            len = (size_t)snprintf(one, sizeof one, "\\\\");
        else if (n)
            memcpy(one, p, n);
        else
            len = (size_t)snprintf(one, sizeof one, "\\x%02x", *p);
        if (used + len + 1 > size)
            break;
        memcpy(out + used, one, len);
        used += len;
        p += n ? n : 1;
    }
    if (size)
        out[used] = '\0';
    return out;
}
