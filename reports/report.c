/* report.c: report.md from its sections, and the whole pipeline. The
 * report is written through a temporary file (util/output_file.h): a full
 * disk or a bad reference leaves the previous report.md as it was. */
#include <stdio.h>
#include <string.h>
#include "fit/fit_output.h"
#include "plots/plot.h"
#include "reports/markdown.h"
#include "reports/report.h"
#include "reports/report_sections.h"
#include "util/exit_status.h"
#include "util/name_list.h"
#include "util/output_file.h"

/* Adds text to list ("a, b") unless it is there already. */
static void add_distinct(struct name_list *l, const char *text)
{
    if (!name_list_has(l, text))
        name_list_add(l, text);
}

/* "# MODELS: TECHNIQUES", what a reader looks for first, then where the
 * measurements are (a path is no title). */
static void write_title(FILE *f, const struct fit_set *set)
{
    char models[1024], techniques[512], name[256], cell[3 * 4096]; /* escaping can triple */
    struct name_list m, t;
    name_list_start(&m, models, sizeof models);
    name_list_start(&t, techniques, sizeof techniques);
    for (int i = 0; i < set->n_groups; i++) {
        add_distinct(&m, model_display_name(set->groups[i].key.model, name, sizeof name));
        add_distinct(&t, set->groups[i].key.technique);
    }
    fprintf(f, "# %s", md_cell(models[0] ? models : "no model measured", cell, sizeof cell));
    fprintf(f, "%s%s\n\n", techniques[0] ? ": " : "", md_cell(techniques, cell, sizeof cell));
    fprintf(f, "peakfit report of the measurements in %s.\n\n", md_cell(set->dir, cell, sizeof cell));
}

static void write_sections(FILE *f, const struct fit_set *set, const struct reference *ref)
{
    write_title(f, set);
    section_environment(f, set);
    section_sweep(f, set);
    section_fits(f, set);
    section_poor_fits(f, set);
    section_holdout(f, set);
    section_peers(f, set);
    section_phases(f, set);
    section_decomposition(f, set);
    section_charts(f, set);
    if (ref)
        section_reference(f, set, ref);
    section_calculator(f, set);
    section_failures(f, set);
    section_time(f, set);
    section_raw_table(f, set);
}

int report_write(const struct fit_set *set, const char *reference_csv)
{
    char path[4200], err[4400];
    struct reference ref;
    struct output_file out;
    if (reference_csv && reference_load(reference_csv, set, &ref, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    snprintf(path, sizeof path, "%s/report.md", set->dir);
    int rc = output_file_open(&out, path, err, sizeof err);
    if (rc == 0) {
        write_sections(out.f, set, reference_csv ? &ref : NULL);
        rc = output_file_commit(&out, err, sizeof err);
    }
    if (reference_csv)
        reference_free(&ref);
    if (rc != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    fprintf(stderr, "peakfit: wrote %s\n", path);
    return EXIT_DONE;
}
