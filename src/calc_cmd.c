/* calc_cmd.c: `peakfit calc` (its options are reports/calc_options.c's,
 * its outputs reports/calc_print.c's): a plan from a results directory or
 * a fit.json, or from the user's own numbers. */
#include <stdio.h>
#include <sys/stat.h>
#include "fit/fit_json.h"
#include "fit/fit_set.h"
#include "fit/numeric_error.h"
#include "reports/calc.h"
#include "reports/calc_alternatives.h"
#include "reports/calc_standalone.h"
#include "src/commands.h"
#include "util/exit_status.h"
#include "util/term_text.h"

/* After the message that said what was wrong: one line, not the option
 * list (which would push the message off the screen). */
static int calc_usage(void)
{
    fprintf(stderr, "peakfit calc --help lists the options\n");
    return EXIT_BAD_INPUT;
}

/* Prints one JSON object on a line, and frees it. */
static void print_json(json_t *o)
{
    json_dumpf(o, stdout, JSON_INDENT(0) | JSON_PRESERVE_ORDER);
    printf("\n");
    json_decref(o);
}

/* dir: a results directory (its peaks.csv is fitted) or a fit.json. */
static int calc_run(const char *dir, const struct calc_request *req)
{
    struct fit_set set;
    struct calc_plan plan;
    char err[4400];
    struct stat st;
    int from_json = stat(dir, &st) == 0 && !S_ISDIR(st.st_mode);
    int loaded = from_json ? fit_json_load(dir, &set, err, sizeof err) : fit_set_load(dir, &set, err, sizeof err);
    int rc = loaded == 0 && calc_plan_make(&set, req, &plan, err, sizeof err) == 0 ? EXIT_DONE : EXIT_BAD_INPUT;
    char why[320];
    if (rc == EXIT_DONE && numeric_error_take(why, sizeof why)) {
        snprintf(err, sizeof err, "%s: its numbers broke the statistics (GSL: %s): refit it with `peakfit fit`",
                 dir, why);
        rc = EXIT_BAD_INPUT;
    }
    if (rc == EXIT_DONE)
        rc = plan_outcome_exit(plan.outcome);
    if (rc == EXIT_BAD_INPUT) {
        char shown[4 * sizeof err]; /* it names fit.json's models and techniques: the terminal's escaper */
        fprintf(stderr, "peakfit: %s\n", term_text(err, shown, sizeof shown));
    } else if (req->json) {
        print_json(calc_plan_json(req, &plan));
    } else {
        calc_plan_print(req, &plan);
        calc_alternatives_print(&set, req, &plan);
    }
    fit_set_free(&set); /* fit_set_load leaves it freeable even when it fails */
    return rc;
}

static int calc_standalone_run(const struct calc_request *req)
{
    struct standalone_plan plan;
    char err[256];
    if (standalone_plan_make(req, &plan, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit calc: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (req->json) {
        print_json(standalone_plan_json(req, &plan));
    } else {
        standalone_plan_print(req, &plan);
    }
    return plan.judged ? plan_outcome_exit(plan.outcome) : EXIT_DONE;
}

int calc_main(int argc, char **argv)
{
    struct calc_request req = {.unit_name = "MiB", .unit_mib = 1}; /* the options' defaults are their rows' */
    const char *dir;
    char why[1024];
    if (calc_parse_args(argc, argv, &req, &dir, why, sizeof why) != 0) {
        fprintf(stderr, "peakfit calc: %s\n", why);
        return calc_usage();
    }
    return dir ? calc_run(dir, &req) : calc_standalone_run(&req);
}
