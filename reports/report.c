/* report.c: report.md from its sections, and the whole pipeline. */
#include <stdio.h>
#include <string.h>
#include "fit/fit_cmd.h"
#include "plots/plot.h"
#include "reports/report.h"
#include "reports/report_sections.h"

int report_write(const struct fit_set *set, const char *reference_csv)
{
    char path[700];
    snprintf(path, sizeof path, "%s/report.md", set->dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "peakfit: %s: cannot write\n", path);
        return -1;
    }
    fprintf(f, "# peakfit report: %s\n\n", set->dir);
    section_environment(f, set);
    section_sweep(f, set);
    section_fits(f, set);
    section_decomposition(f, set);
    section_charts(f, set);
    int rc = reference_csv ? section_reference(f, set, reference_csv) : 0;
    section_calculator(f, set);
    section_failures(f, set);
    section_time(f, set);
    section_raw_table(f, set);
    if (fclose(f) != 0 || rc != 0) {
        fprintf(stderr, "peakfit: %s: cannot write\n", path);
        return -1;
    }
    fprintf(stderr, "peakfit: wrote %s\n", path);
    return 0;
}

int report_main(int argc, char **argv)
{
    const char *reference = argc == 4 && strcmp(argv[2], "--reference") == 0 ? argv[3] : NULL;
    if (argc != 2 && !reference) {
        fprintf(stderr, "usage: peakfit report DIR [--reference PUBLISHED.csv]\n");
        return 2;
    }
    struct fit_set set;
    if (fit_set_open(argv[1], &set) != 0)
        return 2;
    int rc = report_write(&set, reference) == 0 ? 0 : 1;
    fit_set_free(&set);
    return rc;
}
