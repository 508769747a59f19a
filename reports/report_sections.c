/* report_sections.c: Markdown, one function per section. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "plots/plot.h"
#include "reports/calc.h"
#include "reports/markdown.h"
#include "reports/report_sections.h"
#include "sweeps/sweep.h"
#include "util/input_file.h"

static const struct observation *first_row(const struct fit_set *set)
{
    return set->obs.n_ok ? &set->obs.ok[0] : set->obs.n_failed ? &set->obs.failed[0] : NULL;
}

/* Did any point run on Apple's GPU (mps, mps:N)? */
static int measured_on_mps(const struct fit_set *set)
{
    for (int i = 0; i < set->obs.n_ok; i++)
        if (!strncmp(set->obs.ok[i].device, "mps", 3))
            return 1;
    return 0;
}

void section_environment(FILE *f, const struct fit_set *set)
{
    const struct observation *o = first_row(set);
    struct utsname u;
    char when[64], host[3 * sizeof u.release];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(f, "## Environment\n\n| | |\n|---|---|\n");
    fprintf(f, "| report written | %s |\n", when);
    if (uname(&u) == 0)
        fprintf(f, "| host | %s ", md_cell(u.sysname, host, sizeof host)),
            fprintf(f, "%s ", md_cell(u.release, host, sizeof host)),
            fprintf(f, "%s |\n", md_cell(u.machine, host, sizeof host));
    if (o) {
        char cell[3][600];
        fprintf(f, "| CPU | %s |\n| libtorch | %s |\n| intra-op threads | %d |\n",
                md_cell(o->cpu_model, cell[0], sizeof cell[0]), md_cell(o->torch_version, cell[1], sizeof cell[1]),
                o->threads);
        fprintf(f, "| BLAS | %s (%d threads) |\n", md_cell(o->blas, cell[2], sizeof cell[2]), o->blas_threads);
    }
    fprintf(f, "| points | %d measured, %d failed, %d broken rows skipped |\n\n", set->obs.n_ok,
            set->obs.n_failed, set->obs.n_bad);
    fprintf(f, "Every point ran in a fresh process (fork + exec). *Peak above baseline* is the worker's "
               "VmHWM minus its RSS after libtorch was loaded and before the model was built; "
               "*tensor peak* is the counting allocator's peak of live CPU tensor bytes.\n\n");
    if (measured_on_mps(set))
        fprintf(f, "**MPS is built but not yet checked on a Mac**: peakfit has been run on CPU and CUDA; its MPS "
                   "figures are what the code reads, and no Mac has confirmed them yet (docs/measurement.md).\n\n");
}

/* The copy of the sweep, shown as it is: a code block no line of it can
 * close or turn into Markdown (md_code_block). */
void section_sweep(FILE *f, const struct fit_set *set)
{
    char path[4200], err[4400];
    size_t len;
    snprintf(path, sizeof path, "%s/sweep.sweep", set->dir);
    char *text = input_file_read(path, "sweep", SWEEP_FILE_MAX_BYTES, &len, err, sizeof err);
    fprintf(f, "## Sweep\n\n");
    if (!text) {
        fprintf(f, "(no copy of the sweep file in the results directory)\n\n");
        return;
    }
    md_code_block(f, "ini", text, len);
    fprintf(f, "\n");
    free(text);
}
static void raw_row(FILE *f, const struct observation *o)
{
    struct group_key key;
    char n[4][48], status[3 * sizeof o->status];
    group_key_of(o, &key);
    md_key_cells(f, &key);
    fprintf(f, "| %d | %d | %s | %s | %s | %s | %s |\n", o->batch, o->seq_len, md_cell(o->status, status, sizeof status),
            md_number(o->rss_mib, "%.1f", n[0], sizeof n[0]), md_number(o->tensor_mib, "%.1f", n[1], sizeof n[1]),
            md_number(o->baseline_mib, "%.1f", n[2], sizeof n[2]),
            md_number(o->step_mean_s > 0 ? o->step_mean_s : -1, "%.3f", n[3], sizeof n[3]));
}

void section_raw_table(FILE *f, const struct fit_set *set)
{
    fprintf(f, "## Measurements\n\nAn empty cell: not measured.\n\n");
    md_key_header(f, 0);
    fprintf(f, "| batch | seq_len | status | peak above baseline (MiB) | tensor peak (MiB) | baseline (MiB) | "
               "step (s) |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < set->obs.n_ok; i++)
        raw_row(f, &set->obs.ok[i]);
    for (int i = 0; i < set->obs.n_failed; i++)
        raw_row(f, &set->obs.failed[i]);
    fprintf(f, "\n");
}

static void coefficient(FILE *f, const struct ols *c, int i, const char *fmt)
{
    if (!c || i >= c->p) {
        fprintf(f, " - |");
        return;
    }
    fprintf(f, " ");
    fprintf(f, fmt, c->c[i]);
    if (isfinite(ols_ci95(c, i))) {
        fprintf(f, " ± ");
        fprintf(f, fmt, ols_ci95(c, i));
    } else {
        fprintf(f, " (exact: as many points as coefficients)");
    }
    fprintf(f, " |");
}

void section_fits(FILE *f, const struct fit_set *set)
{
    char label[1200];
    fprintf(f, "## Fits\n\npeak = F + A·T (+ B·b·s²), T = b·s tokens, by least squares (GSL); ± is the 95%% "
               "confidence interval (Student t). The b·s² term (attention scores, Korthikanti et al. 2022) "
               "is kept when an F-test gives p < 0.05 and the term is at least 1%% of the peak at the largest b·s² "
               "measured. LOO is the leave-one-out prediction error (RMS).\n\n");
    md_key_header(f, 0);
    fprintf(f, "| metric | n | fit | F (MiB) | A (MiB/token) | B (MiB/(b·s²)) | A per sample (MiB) | R² | "
               "LOO (MiB) |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        const struct ols *c = group_chosen(g);
        md_key_cells(f, &g->key);
        fprintf(f, "| %s | %d | %s |", metric_name(g->metric), g->n, !c ? "none" : c->p == 3 ? "quadratic" : "linear");
        coefficient(f, c, 0, "%.1f");
        coefficient(f, c, 1, "%.4g");
        coefficient(f, c, 2, "%.3g");
        fprintf(f, " ");
        for (int s = 0; c && s < g->n_seq; s++)
            fprintf(f, "%ss=%d: %.2f", s ? ", " : "", g->seq_lens[s], group_per_sample(g, g->seq_lens[s]));
        if (c)
            fprintf(f, " | %.4f | %.2f |\n", c->r2, g->loo_rmse);
        else
            fprintf(f, "- | - | - |\n");
    }
    fprintf(f, "\nModel choice (rss metric):\n\n");
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].metric == METRIC_RSS)
            fprintf(f, "- **%s**: %s\n", md_key_label(&set->groups[i].key, label, sizeof label),
                    set->groups[i].reason);
    fprintf(f, "\nFull numbers, with standard errors and AIC of both models: `fit.csv`; residuals: "
               "`fit-residuals.csv`.\n\n");
}

void section_decomposition(FILE *f, const struct fit_set *set)
{
    fprintf(f, "## Fixed cost F against what the worker measured\n\nWeights, gradients and AdamW state are "
               "the bytes of those tensors as the worker reported them; overhead is the rest of F "
               "(allocator caching, autograd buffers, the logits of the first step ...). Where the fitted F is "
               "below the measured tensors (an intercept extrapolated from large batches can be), the overhead "
               "is 0 and the shortfall is given instead of a negative figure.\n\n");
    md_key_header(f, 0);
    fprintf(f, "| metric | F (MiB) | weights | gradients | optimizer state | overhead |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|---|\n");
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (!group_chosen(g))
            continue;
        char overhead[96];
        if (g->overhead_mib >= 0)
            snprintf(overhead, sizeof overhead, "%.1f", g->overhead_mib);
        else
            snprintf(overhead, sizeof overhead, "0 (F is %.1f below the measured tensors)", -g->overhead_mib);
        md_key_cells(f, &g->key);
        fprintf(f, "| %s | %.1f | %.1f | %.1f | %.1f | %s |\n", metric_name(g->metric), group_chosen(g)->c[0],
                g->weight_mib, g->grad_mib, g->optimizer_mib, overhead);
    }
    fprintf(f, "\n");
}

/* Why a chart file is not there, most specific reason first. */
static const char *chart_absence(const struct fit_set *set, int chart)
{
    char script[4400];
    const char *empty = plot_chart_empty(set, chart);
    if (empty)
        return empty;
    snprintf(script, sizeof script, "%s/plots/peakfit.gp", set->dir);
    if (access(script, F_OK) != 0)
        return "`peakfit plot DIR` has not been run yet";
    if (!plot_have_gnuplot())
        return "gnuplot is not on PATH (`make deps` installs gnuplot-nox; then `peakfit plot DIR`)";
    return "gnuplot did not draw it (run `gnuplot peakfit.gp` in `plots/` to see why)";
}

void section_charts(FILE *f, const struct fit_set *set)
{
    char path[4400];
    struct stat st;
    int drawn = 0;
    fprintf(f, "## Charts\n\n");
    for (int c = 0; c < plot_chart_count; c++) {
        const char *name = plot_chart_name(c);
        snprintf(path, sizeof path, "%s/plots/%s.png", set->dir, name);
        if (!plot_chart_empty(set, c) && stat(path, &st) == 0 && st.st_size > 0) {
            fprintf(f, "![%s](plots/%s.png)\n\n", name, name);
            drawn++;
        } else {
            fprintf(f, "No %s chart: %s.\n\n", name, chart_absence(set, c));
        }
    }
    if (drawn)
        fprintf(f, "SVG versions and the gnuplot script (`peakfit.gp`) are in `plots/`.\n\n");
}

void section_failures(FILE *f, const struct fit_set *set)
{
    char peak[48], reason[1100];
    fprintf(f, "## Points that did not finish\n\n");
    if (!set->obs.n_failed) {
        fprintf(f, "None: every point finished.\n\n");
        return;
    }
    fprintf(f, "These are results too: `oom` (over `mem_limit` or an allocation failure) and `timeout` mark the "
               "edge of what fits; `killed`, `crashed` and `error` need their reason read. An empty peak: none "
               "was measured.\n\n");
    md_key_header(f, 0);
    fprintf(f, "| batch | seq_len | status | peak above baseline (MiB) | reason |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|\n");
    for (int i = 0; i < set->obs.n_failed; i++) {
        const struct observation *o = &set->obs.failed[i];
        struct group_key key;
        group_key_of(o, &key);
        md_key_cells(f, &key);
        char status[3 * sizeof o->status];
        fprintf(f, "| %d | %d | %s | %s | %s |\n", o->batch, o->seq_len, md_cell(o->status, status, sizeof status),
                md_number(o->rss_mib, "%.1f", peak, sizeof peak), md_cell(o->error, reason, sizeof reason));
    }
    fprintf(f, "\n");
}

static void calculator_row(FILE *f, const struct fit_set *set, const struct group_fit *g, double budget_gib)
{
    /* calc's default: a Python trainer's whole process (reports/process_term.h). */
    struct calc_request req = {.technique = g->key.technique, .budget_mib = budget_gib * 1024, .replicas = 1,
                               .target_batch = 256, .on_measuring_machine = 1, .process = PROCESS_PYTHON};
    group_choice_of_key(&req.choice, &g->key);
    struct calc_plan p;
    char err[4400], cell[4400];
    md_key_cells(f, &g->key);
    if (calc_plan_make(set, &req, &p, err, sizeof err) != 0) {
        fprintf(f, "| %g GiB | - | no plan: %s | - | - | - | - |\n", budget_gib, md_cell(err, cell, sizeof cell));
        return;
    }
    if (!p.max_micro_batch_estimate) {
        fprintf(f, "| %g GiB | %ld | none fits | - | - | - | %.0f at b = 1 |\n", budget_gib, p.seq_len,
                p.predicted_mib);
        return;
    }
    if (!p.max_micro_batch) {
        fprintf(f, "| %g GiB | %ld | none within its interval (%ld at the estimate) | - | - | - | %.0f at b = 1 |\n",
                budget_gib, p.seq_len, p.max_micro_batch_estimate, p.predicted_mib);
        return;
    }
    char accum[32] = "- (no training)";
    if (p.training)
        snprintf(accum, sizeof accum, "%ld", p.accum);
    fprintf(f, "| %g GiB | %ld | %ld | %ld | %s | %.1f | %.0f%s |\n", budget_gib, p.seq_len, p.max_micro_batch,
            p.micro_batch, accum, p.activation_mib, p.predicted_mib, p.extrapolated ? " (extrapolated)" : "");
}

void section_calculator(FILE *f, const struct fit_set *set)
{
    static const double budgets_gib[] = {8, 16, 24, 80};
    fprintf(f, "## Calculator\n\nFor a memory budget (a Python trainer's whole process, baseline included, as "
               "`peakfit calc` plans by default: the worker's fit plus the difference a Python trainer's process "
               "holds over it, peakfit's docs/calc.md; "
               "`--process worker` plans for the worker's own) and a target "
               "effective batch E = b·a·g, the largest micro-batch b whose predicted peak fits (the upper end of its 95%% interval within the budget) and the "
               "accumulation steps a = ⌈E / (b·g)⌉. Here E = 256 on one replica (g = 1), at the largest "
               "measured seq_len. b is the largest micro-batch that fits unless a slightly smaller one makes "
               "b·a·g = E exactly; M = b·A_sample is its activation memory. A technique that does not train "
               "(inference) has no accumulation: b is the largest batch that fits.\n\n");
    md_key_header(f, 0);
    fprintf(f, "| budget | seq_len | largest b that fits | b | a | M (MiB) | predicted peak (MiB) |\n");
    md_key_header(f, 1);
    fprintf(f, "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        if (g->metric != METRIC_RSS || !group_chosen(g))
            continue;
        for (size_t b = 0; b < sizeof budgets_gib / sizeof budgets_gib[0]; b++)
            calculator_row(f, set, g, budgets_gib[b]);
    }
    fprintf(f, "\nAny other plan: `peakfit calc DIR --budget 24GiB --target-batch 512 --replicas 4 "
               "--seq-len 256 --technique full` (`--model M`, `--device D` and `--attention A` where DIR holds several, "
               "`--json` for machines, `--micro-batch B --accum A` to check a given plan).\n\n");
}
