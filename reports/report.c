/* report.c: report.md from its sections, and the whole pipeline. The
 * report is written through a temporary file (util/output_file.h): a full
 * disk or a bad reference leaves the previous report.md as it was. */
#include <stdio.h>
#include <string.h>
#include "fit/fit_output.h"
#include "plots/plot.h"
#include "reports/markdown.h"
#include "reports/report.h"
#include "reports/report_html.h"
#include "reports/report_sections.h"
#include "util/exit_status.h"
#include "util/name_list.h"
#include "util/output_file.h"

static void write_sections(FILE *f, const struct fit_set *set, const struct reference *ref)
{
    section_summary(f, set);
    section_environment(f, set);
    section_fits(f, set);
    section_poor_fits(f, set);
    section_holdout(f, set);
    section_peers(f, set);
    section_ranks(f, set);
    section_phases(f, set);
    section_decomposition(f, set);
    section_charts(f, set);
    if (ref)
        section_reference(f, set, ref);
    section_calculator(f, set);
    section_failures(f, set);
    section_time(f, set);
    section_sweep(f, set);
    section_raw_table(f, set);
}

int report_write(const struct fit_set *set, const char *reference_csv, int html)
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
    if (html && report_html_write(set->dir, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    if (html)
        fprintf(stderr, "peakfit: wrote %s/report.html\n", set->dir);
    return EXIT_DONE;
}
