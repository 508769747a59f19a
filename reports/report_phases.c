/* report_phases.c: report.md's section on the phases of a step: which
 * phase set each measured point's peak, and the hinge fit built on them. */
#include <math.h>
#include <stdio.h>
#include "reports/calc.h"
#include "reports/markdown.h"
#include "reports/report_sections.h"

static void hinge_summary(FILE *f, const struct group_fit *g)
{
    char label[1200];
    int by_step = 0;
    for (int i = 0; i < g->n; i++)
        by_step += g->parts[i].step_binds;
    char interval[96];
    /* An interval needs two points where the step set the peak; with fewer,
     * say what P_step is instead of printing nan. */
    if (isfinite(g->p_step_ci95))
        snprintf(interval, sizeof interval, " ± %.1f MiB", g->p_step_ci95);
    else
        snprintf(interval, sizeof interval, " MiB (%s: no interval)",
                 by_step ? "from one point" : "the smallest optimizer-step part, as it set no peak");
    fprintf(f, "- **%s**: P_step = %.1f%s; the optimizer step set the peak at %d of %d points, "
               "forward/backward at the rest.\n", md_key_label(&g->key, label, sizeof label), g->p_step,
            interval, by_step, g->n);
}

static void phase_rows(FILE *f, const struct group_fit *g)
{
    for (int i = 0; i < g->n; i++) {
        const struct observation *p = g->points[i];
        md_key_cells(f, &g->key);
        fprintf(f, "| %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %s |\n", p->batch, p->seq_len,
                p->phase_mib[PF_PHASE_FORWARD], p->phase_mib[PF_PHASE_BACKWARD], p->phase_mib[PF_PHASE_OPTIMIZER],
                g->y[i], g->predicted[i], g->parts[i].step_binds ? "optimizer step" : "forward/backward");
    }
}

void section_phases(FILE *f, const struct fit_set *set)
{
    int any = 0;
    fprintf(f, "## Peaks by phase\n\nThe worker records the allocator-level peak of each phase of a step "
               "(forward to the loss, backward, optimizer step; live tensors above the baseline) and the RSS at "
               "each phase's end. The optimizer step's peak (weights, gradients, AdamW state and its "
               "temporaries) does not grow with tokens; the forward/backward peak does. So the fit is "
               "**peak = max(P_step, F + A·T (+ B·b·s²))**: the line fitted to the forward/backward part, P_step "
               "the mean of the optimizer-step part where it set the peak (else its smallest), the memory "
               "above live tensors carried by both. Which part set each point's peak is read off its "
               "phases.\n\n");
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].metric == METRIC_RSS && set->groups[i].hinge && group_chosen(&set->groups[i])) {
            hinge_summary(f, &set->groups[i]);
            any = 1;
        }
    if (!any) {
        fprintf(f, "No group has per-phase peaks (training techniques measured by this version of peakfit): "
                   "the fit is the line alone.\n\n");
        return;
    }
    fprintf(f, "\n");
    md_key_header(f, 0);
    fprintf(f, "| batch | seq_len | forward (MiB) | backward (MiB) | optimizer step (MiB) | peak above baseline "
               "(MiB) | predicted (MiB) | set by |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].metric == METRIC_RSS && set->groups[i].hinge && group_chosen(&set->groups[i]))
            phase_rows(f, &set->groups[i]);
    fprintf(f, "\n");
}

void section_poor_fits(FILE *f, const struct fit_set *set)
{
    char label[1200];
    int any = 0;
    fprintf(f, "## Poor fits\n\nA fit is flagged when R² is below %g, A is negative, or it has fewer points "
               "than its coefficients + 2; calc also warns when a plan lies over %d times beyond the measured "
               "batch or seq_len.\n\n", GROUP_FIT_R2_MIN, CALC_FAR_FACTOR);
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
