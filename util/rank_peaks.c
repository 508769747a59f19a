/* rank_peaks.c: the rank_peaks_mib column's text (util/rank_peaks.h). */
#include <stdio.h>
#include <string.h>
#include "util/parse.h"
#include "util/rank_peaks.h"

#define MIB_MAX 1e12 /* as peaks.csv's numbers: far above any memory */

void rank_peaks_format(const struct rank_peak *p, int n, char *text)
{
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < n && used < RANK_PEAKS_TEXT; i++) {
        char tensor[32] = "";
        if (p[i].tensor_mib >= 0)
            snprintf(tensor, sizeof tensor, "%.3f", p[i].tensor_mib);
        used += (size_t)snprintf(text + used, RANK_PEAKS_TEXT - used, "%s%d:%.3f:%s", i ? " " : "", p[i].rank,
                                 p[i].rss_mib, tensor);
    }
}

/* One "R:RSS:TENSOR" (a copy, cut at its colons): 0, or -1. */
static int parse_one(char *word, int after, struct rank_peak *p)
{
    char *rss = strchr(word, ':'), *tensor = rss ? strchr(rss + 1, ':') : NULL;
    long rank;
    if (!tensor)
        return -1;
    *rss++ = '\0';
    *tensor++ = '\0';
    if (parse_long(word, after + 1, RANK_PEAKS_MAX - 1, &rank) != 0 || parse_double(rss, 0, MIB_MAX, &p->rss_mib) != 0)
        return -1;
    p->rank = (int)rank;
    p->tensor_mib = -1;
    return tensor[0] && parse_double(tensor, 0, MIB_MAX, &p->tensor_mib) != 0 ? -1 : 0;
}

int rank_peaks_parse(const char *text, struct rank_peak *p, int max, char *why, size_t whylen)
{
    char copy[RANK_PEAKS_TEXT], *save = NULL;
    int n = 0;
    if (strlen(text) >= sizeof copy)
        return snprintf(why, whylen, "rank_peaks_mib is longer than %d bytes", RANK_PEAKS_TEXT - 1), -1;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save), n++) {
        char word[64];
        snprintf(word, sizeof word, "%s", w);
        if (n == max || parse_one(word, n ? p[n - 1].rank : -1, &p[n]) != 0)
            return snprintf(why, whylen, "rank_peaks_mib \"%.60s\": \"%.40s\" is not RANK:RSS:TENSOR (ranks rising, "
                            "from 0 to %d)", text, w, RANK_PEAKS_MAX - 1), -1;
    }
    if (n == 0 && text[0])
        return snprintf(why, whylen, "rank_peaks_mib \"%.60s\" holds no rank", text), -1;
    return n;
}
