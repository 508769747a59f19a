/* report_ranks.c: report.md's points measured as several ranks (a command
 * job that starts a launcher): the tree's peak, every rank's, and which
 * one the fit used (the largest, the row's own: proc/rank_reports.h). */
#include <stdio.h>
#include "reports/markdown.h"
#include "reports/report_sections.h"

static void rank_row(FILE *f, const struct observation *o)
{
    struct rank_peak p[RANK_PEAKS_MAX];
    char why[160], tree[32], tensor[32], model[400];
    int n = rank_peaks_parse(o->rank_peaks, p, RANK_PEAKS_MAX, why, sizeof why); /* checked when read */
    fprintf(f, "| %s | %d | %d | %s | %d |", md_cell(o->model, model, sizeof model), o->batch, o->seq_len,
            md_number(o->tree_peak_mib, "%.1f", tree, sizeof tree), n);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d: %.1f / %s", i ? "; " : " ", p[i].rank, p[i].rss_mib,
                md_number(p[i].tensor_mib, "%.1f", tensor, sizeof tensor));
    fprintf(f, " |\n");
}

void section_ranks(FILE *f, const struct fit_set *set)
{
    int shown = 0;
    for (int i = 0; i < set->obs.n_ok; i++) {
        const struct observation *o = &set->obs.ok[i];
        if (!o->rank_peaks[0])
            continue;
        if (!shown++)
            fprintf(f, "## Ranks\n\nPoints whose command started several ranks (a launcher such as torchrun): "
                       "the whole tree's peak RSS, and each rank's peak above its baseline, RSS / allocator-level "
                       "(MiB). The fit and calc use the largest rank's, what one device must hold "
                       "(peakfit's docs/own-script.md, Ranks).\n\n"
                       "| model | batch | seq_len | tree peak (MiB) | ranks | rank: RSS / tensor |\n"
                       "|---|---|---|---|---|---|\n");
        rank_row(f, o);
    }
    if (shown)
        fprintf(f, "\n");
}
