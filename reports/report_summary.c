/* report_summary.c: the report's first screen, the answer: the title (the
 * models, the hardware and the torch), then per technique, attention and
 * seq_len A, F, the floor, the largest micro-batch and the accumulation
 * steps at the budgets that matter, and each technique's saving against
 * full; then the headline chart. The details follow in the other sections. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stdlib.h>
#include "plots/plot.h"
#include "plots/plot_data.h"
#include "reports/calc.h"
#include "reports/hardware_here.h"
#include "reports/markdown.h"
#include "reports/report_sections.h"
#include "util/name_list.h"

/* The effective batch the table's accumulation steps reach. */
enum { SUMMARY_TARGET_BATCH = 256, MAX_BUDGETS = 6 };

/* The budgets that matter (MiB): a GPU's own memory and 16, 24, 40, 80
 * GiB; on the CPU the machine's RAM where it is known (the report runs on
 * the CPU that measured), else 16 and 32 GiB. Returns how many. */
static int budgets(const struct fit_set *set, double *out)
{
    static const double gpu_gib[] = {16, 24, 40, 80}, cpu_gib[] = {16, 32};
    const struct observation *o = set->obs.n_ok ? &set->obs.ok[0] : NULL;
    int n = 0;
    if (o && o->gpu_total_mib > 0) {
        out[n++] = o->gpu_total_mib;
        for (size_t i = 0; i < sizeof gpu_gib / sizeof gpu_gib[0]; i++)
            if (fabs(gpu_gib[i] * 1024 - o->gpu_total_mib) > 512)
                out[n++] = gpu_gib[i] * 1024;
        return n;
    }
    double ram = o ? hardware_ram_mib_if_here(o) : -1;
    if (ram > 0) {
        out[n++] = ram;
        return n;
    }
    for (size_t i = 0; i < sizeof cpu_gib / sizeof cpu_gib[0]; i++)
        out[n++] = cpu_gib[i] * 1024;
    return n;
}

static void write_title(FILE *f, const struct fit_set *set)
{
    char models[1024], name[256], cell[3 * 1024], title[1024], hw_cell[3 * 1024];
    struct hardware hw;
    struct name_list m;
    name_list_start(&m, models, sizeof models);
    for (int i = 0; i < set->n_groups; i++) {
        model_display_name(set->groups[i].key.model, name, sizeof name);
        if (!name_list_has(&m, name))
            name_list_add(&m, name);
    }
    const struct observation *o = set->obs.n_ok ? &set->obs.ok[0] : set->obs.n_failed ? &set->obs.failed[0] : NULL;
    fprintf(f, "# %s", md_cell(models[0] ? models : "no model measured", cell, sizeof cell));
    if (o)
        hardware_of(o, &hw), fprintf(f, " on %s", md_cell(hardware_title(&hw, title, sizeof title), hw_cell, sizeof hw_cell));
    fprintf(f, "\n\npeakfit report of the measurements in %s.\n\n", md_cell(set->dir, cell, sizeof cell));
}

/* The planning fits (calc_metric), one per key, in the groups' order. */
static int is_planning_group(const struct fit_set *set, int i)
{
    const struct group_fit *g = &set->groups[i];
    return g->metric == calc_metric(set, &g->key);
}

/* The mean measured peak of g at (b, s), or NAN where it has none. */
static double measured_at(const struct group_fit *g, int b, int s)
{
    double sum = 0;
    int k = 0;
    for (int i = 0; i < g->n; i++)
        if (g->points[i]->batch == b && g->points[i]->seq_len == s)
            sum += g->y[i], k++;
    return k ? sum / k : NAN;
}

/* g's peak above baseline at (b, s): its fit's prediction, else what it
 * measured there. */
static double peak_at(const struct group_fit *g, int b, int s)
{
    double pi;
    return group_chosen(g) ? group_predict(g, b, s, &pi) : measured_at(g, b, s);
}

/* Full training of the same model, device and attention, in g's metric. */
static const struct group_fit *full_of(const struct fit_set *set, const struct group_fit *g)
{
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *f = &set->groups[i];
        if (!strcmp(f->key.technique, "full") && f->metric == g->metric && !strcmp(f->key.model, g->key.model) &&
            !strcmp(f->key.device, g->key.device) && !strcmp(f->key.attention, g->key.attention) &&
            !strcmp(f->key.measured_by, g->key.measured_by))
            return f;
    }
    return NULL;
}

static int largest_batch_at(const struct group_fit *g, int s)
{
    int b = 0;
    for (int i = 0; i < g->n; i++)
        if (g->points[i]->seq_len == s && g->points[i]->batch > b)
            b = g->points[i]->batch;
    return b;
}

/* "−1234 MiB (−25%) at b8": g's peak against full's at g's largest batch
 * at s; "-" for full itself or where full has no figure there. */
static void saving_cell(FILE *f, const struct fit_set *set, const struct group_fit *g, int s)
{
    const struct group_fit *full = full_of(set, g);
    int b = largest_batch_at(g, s);
    double mine = peak_at(g, b, s), theirs = full && full != g ? peak_at(full, b, s) : NAN;
    if (!isfinite(mine) || !isfinite(theirs) || theirs <= 0) {
        fprintf(f, " - |");
        return;
    }
    fprintf(f, " %+.0f MiB (%+.0f%%) at b%d |", mine - theirs, 100 * (mine - theirs) / theirs, b);
}

/* "b × a" at one budget. */
static void plan_cell(FILE *f, const struct fit_set *set, const struct group_fit *g, int s, double budget)
{
    struct calc_request req = {.technique = g->key.technique, .budget_mib = budget, .replicas = 1,
                               .seq_len = s, .target_batch = SUMMARY_TARGET_BATCH, .on_measuring_machine = 1};
    group_choice_of_key(&req.choice, &g->key);
    struct calc_plan p;
    char err[4400];
    if (!group_chosen(g) || calc_plan_make(set, &req, &p, err, sizeof err) != 0 || p.fit != g)
        fprintf(f, " - |");
    else if (!p.max_micro_batch && p.max_micro_batch_estimate && !isfinite(p.predicted_ci95_mib))
        fprintf(f, " %ld%s (estimate: no interval) |", p.max_micro_batch_estimate,
                p.max_micro_batch_estimate > g->max_batch ? "*" : "");
    else if (!p.max_micro_batch)
        fprintf(f, " none fits |");
    else if (p.training)
        fprintf(f, " %ld%s (%ld × %ld) |", p.max_micro_batch, p.max_micro_batch > g->max_batch ? "*" : "",
                p.micro_batch, p.accum);
    else
        fprintf(f, " %ld%s |", p.max_micro_batch, p.max_micro_batch > g->max_batch ? "*" : "");
}

static void summary_row(FILE *f, const struct fit_set *set, const char *label, const struct group_fit *g, int s,
                        const double *budget, int n_budgets)
{
    char cell[3 * 700];
    const struct ols *c = group_chosen(g);
    if (group_is_per_sample(g))
        fprintf(f, "| %s | none: per sample |", md_cell(label, cell, sizeof cell));
    else
        fprintf(f, "| %s | %d |", md_cell(label, cell, sizeof cell), s);
    if (c) {
        fprintf(f, " %.4g | %.1f | %.0f |", c->c[1], group_per_sample(g, s), c->c[0]);
        fprintf(f, " %s |", g->floor.found ? (snprintf(cell, sizeof cell, "%.0f", g->floor.p_mib), cell) : "none");
    } else {
        int b = largest_batch_at(g, s);
        fprintf(f, " one batch measured: %.0f MiB at b%d | - | - | - |", measured_at(g, b, s), b);
    }
    for (int k = 0; k < n_budgets; k++)
        plan_cell(f, set, g, s, budget[k]);
    saving_cell(f, set, g, s);
    fprintf(f, "\n");
}

/* The headline chart: peak against tokens, where it was drawn. */
static void headline_chart(FILE *f, const struct fit_set *set)
{
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/plots/peak_vs_tokens.png", set->dir);
    if (stat(path, &st) == 0 && st.st_size > 0)
        fprintf(f, "![peak against tokens](plots/peak_vs_tokens.png)\n\n");
}

void section_summary(FILE *f, const struct fit_set *set)
{
    double budget[MAX_BUDGETS];
    int n_budgets = budgets(set, budget);
    const struct observation *o = set->obs.n_ok ? &set->obs.ok[0] : NULL;
    int ram = o && !(o->gpu_total_mib > 0) && hardware_ram_mib_if_here(o) > 0;
    write_title(f, set);
    fprintf(f, "peak = max(floor, F + A·T), T = b·s tokens per micro-batch: A per token and per sample (A·s, "
               "with the b·s² term where it was fitted), F and the floor in MiB above the baseline. Each budget's "
               "cell is the largest micro-batch b whose 95%% interval fits the whole process in it (*: beyond the "
               "largest measured), and in brackets the plan b × a for an effective batch of %d (a: the "
               "accumulation steps). Saving: the "
               "peak against full training's at the technique's largest measured batch.\n\n",
               SUMMARY_TARGET_BATCH);
    fprintf(f, "| technique | seq_len | A (MiB/token) | A per sample (MiB) | F (MiB) | floor (MiB) |");
    for (int k = 0; k < n_budgets; k++)
        fprintf(f, " %.4g GiB%s |", budget[k] / 1024, k == 0 && ram ? " (this machine's RAM)" : "");
    fprintf(f, " saving against full |\n|---|---|---|---|---|---|");
    for (int k = 0; k <= n_budgets; k++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    const struct group_fit **g = malloc((size_t)(set->n_groups ? set->n_groups : 1) * sizeof *g);
    int n = 0;
    for (int i = 0; g && i < set->n_groups; i++)
        if (is_planning_group(set, i))
            g[n++] = &set->groups[i];
    for (int i = 0; i < n; i++) {
        char label[700];
        plot_group_label(label, sizeof label, g, n, i, " ");
        for (int k = 0; k < g[i]->n_seq; k++)
            summary_row(f, set, label, g[i], g[i]->seq_lens[k], budget, n_budgets);
    }
    free(g);
    fprintf(f, "\n");
    headline_chart(f, set);
    fprintf(f, "The details follow: where the numbers come from, how well the fits hold, every chart and every "
               "measurement.\n\n");
}
