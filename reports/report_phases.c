/* report_phases.c: report.md's section on the floor: where the knee is,
 * which bound set each measured point (floor or line), and beside it the
 * phase whose peak was highest; and the flagged fits. */
#include <math.h>
#include <stdio.h>
#include "fit/phases.h"
#include "reports/calc.h"
#include "reports/markdown.h"
#include "reports/report_sections.h"

static void floor_summary(FILE *f, const struct group_fit *g)
{
    char label[1200];
    fprintf(f, "- **%s**: ", md_key_label(&g->key, label, sizeof label));
    if (!g->floor.found)
        fprintf(f, "no floor: all %d points on the line", g->n);
    else if (isfinite(g->floor.f_p))
        fprintf(f, "floor P = %.1f MiB (F-test against the line alone p = %.2g)", g->floor.p_mib, g->floor.f_p);
    else /* RSS on the allocator's floor points (fit/group_gap.c), or too few points left for a test */
        fprintf(f, "floor P = %.1f MiB (%s)", g->floor.p_mib,
                g->gap_model ? "on the allocator-level fit's floor points" : "untested: too few points for the line");
    double knee = g->floor.found ? group_knee_tokens(g, g->seq_lens[g->n_seq - 1]) : NAN;
    if (g->floor.found)
        fprintf(f, "; %d point%s on the floor, %d above the knee", g->floor.k, g->floor.k == 1 ? "" : "s", g->n_above);
    if (isfinite(knee)) /* not where a rising floor runs parallel to the line (it meets it at a point) */
        fprintf(f, " (at T = %.0f tokens, s = %d)", knee, g->seq_lens[g->n_seq - 1]);
    if (g->n_above < GROUP_FIT_ABOVE_MIN)
        fprintf(f, ". **Warning: fewer than %d points above the knee: A rests on too little**", GROUP_FIT_ABOVE_MIN);
    fprintf(f, ".\n");
}

static void phase_cell(FILE *f, const struct observation *p, int phase)
{
    if (p->phase_mib[phase] > 0)
        fprintf(f, " %.1f |", p->phase_mib[phase]);
    else
        fprintf(f, " |");
}

static void point_rows(FILE *f, const struct group_fit *g)
{
    for (int i = 0; i < g->n; i++) {
        const struct observation *p = g->points[i];
        md_key_cells(f, &g->key);
        fprintf(f, "| %d | %d |", p->batch, p->seq_len);
        for (int k = 0; k < PF_PHASE_COUNT; k++)
            phase_cell(f, p, k);
        fprintf(f, " %.1f | %.1f | %s | %s |\n", g->y[i], g->predicted[i], g->on_floor[i] ? "floor" : "line",
                phase_name(phase_of_peak(p->phase_mib)));
    }
}

static int fitted_rss(const struct group_fit *g) { return g->metric == METRIC_RSS && group_chosen(g); }

void section_phases(FILE *f, const struct fit_set *set)
{
    fprintf(f, "## The floor and the knee\n\nAt small batches something that does not grow with tokens sets the "
               "peak: the optimizer step (weights, gradients, AdamW state and its temporaries), late backward "
               "(every gradient live while the activations are nearly gone), or both. The fit is **peak = "
               "max(P, F + A·T (+ B·b·s²))**: the points on the floor are found from the data (segmented least "
               "squares over how many of the smallest peaks lie on it; kept when an F-test against the line alone "
               "gives p < %g), P is their mean, and the line is fitted to the points above the knee only. The "
               "phase whose allocator-level peak was highest is shown beside it as evidence.\n\n", FLOOR_P_MAX);
    for (int i = 0; i < set->n_groups; i++)
        if (fitted_rss(&set->groups[i]))
            floor_summary(f, &set->groups[i]);
    fprintf(f, "\n");
    md_key_header(f, 0);
    fprintf(f, "| batch | seq_len | forward (MiB) | backward (MiB) | optimizer step (MiB) | peak above baseline "
               "(MiB) | predicted (MiB) | bound by | highest phase |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < set->n_groups; i++)
        if (fitted_rss(&set->groups[i]))
            point_rows(f, &set->groups[i]);
    fprintf(f, "\n");
}

void section_poor_fits(FILE *f, const struct fit_set *set)
{
    char label[1200];
    int any = 0;
    fprintf(f, "## Poor fits\n\nA fit is flagged when R² is below %g, A is negative, it has fewer points above "
               "the knee than its coefficients + 2, or fewer than %d; calc also warns when a plan lies over %d "
               "times beyond the measured batch or seq_len, and marks a plan past %d times the largest measured "
               "tokens as an extrapolation.\n\n", GROUP_FIT_R2_MIN, GROUP_FIT_ABOVE_MIN, CALC_FAR_FACTOR,
            CALC_EXTRAPOLATION_FACTOR);
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (!g->flags[0])
            continue;
        fprintf(f, "- **%s** (%s): %s\n", md_key_label(&g->key, label, sizeof label), metric_name(g->metric),
                g->flags);
        any = 1;
    }
    fprintf(f, any ? "\n" : "None flagged.\n\n");
}
