/* gnuplot_text.c: the two ways text reaches gnuplot. */
#include "plots/gnuplot_text.h"

const char *gnuplot_quote(const char *text, char *out, size_t size)
{
    size_t n = 0;
    if (size < 3) {
        if (size)
            out[0] = '\0';
        return out;
    }
    out[n++] = '\'';
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        int twice = *p == '\'';
        if (n + 1 + twice + 1 >= size) /* room for this, the closing ' and the NUL */
            break;
        out[n++] = *p < 0x20 || *p == 0x7f ? ' ' : (char)*p;
        if (twice)
            out[n++] = '\'';
    }
    out[n++] = '\'';
    out[n] = '\0';
    return out;
}

const char *gnuplot_data_label(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n + 1 < size; p++)
        out[n++] = *p == '"' ? '\'' : *p < 0x20 || *p == 0x7f ? ' ' : (char)*p;
    if (size)
        out[n] = '\0';
    return out;
}
