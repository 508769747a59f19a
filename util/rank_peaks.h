/* rank_peaks.h: the rank_peaks_mib column's text, written and read back
 * strictly: one "R:RSS:TENSOR" a rank, by rank, separated by spaces. RSS
 * is the rank's peak above its baseline, TENSOR its allocator-level
 * peak above its baseline (empty when it reported none), both in MiB. */
#ifndef PEAKFIT_RANK_PEAKS_H
#define PEAKFIT_RANK_PEAKS_H
#include <stddef.h>

enum { RANK_PEAKS_MAX = 64, RANK_PEAKS_TEXT = 2048 };

struct rank_peak {
    int rank;
    double rss_mib;    /* above the rank's baseline */
    double tensor_mib; /* -1: unknown */
};

/* The text of n ranks into text (RANK_PEAKS_TEXT bytes). */
void rank_peaks_format(const struct rank_peak *p, int n, char *text);
/* Reads text back: the count (0 for ""), or -1 with why ("rank 2 of
 * \"0:1:2 x\" is not R:RSS:TENSOR"). Ranks rise; at most max. */
int rank_peaks_parse(const char *text, struct rank_peak *p, int max, char *why, size_t whylen);
#endif
