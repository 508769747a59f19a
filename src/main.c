/* main.c: peakfit's subcommands, from one table: dispatch, the usage text,
 * each command's --help and the list in "unknown command" all walk it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "reports/calc.h"
#include "src/commands.h"
#include "verify/verify_options.h"
#include "src/params_cmd.h"
#include "protocol/point_result.h"
#include "runner/run_sweep.h"
#include "src/slurm_cmd.h"
#include "worker/torch_facts.h"
#include "proc/worker_binary.h"
#include "protocol/worker_options.h"
#include "src/all_cmd.h"
#include "src/columns_cmd.h"
#include "autosweep/auto_args.h"
#include "src/auto_cmd.h"
#include "src/grid_cmd.h"
#include "src/verify_cmd.h"
#include "fit/numeric_error.h"
#include "util/exit_status.h"
#include "util/options.h"
#include "util/version.h"

struct command {
    const char *name;
    int (*main)(int argc, char **argv);
    const char *synopsis; /* what follows "peakfit NAME"; continuation lines indented; NULL: from opts */
    const char *summary;
    const struct opt_table *opts; /* its option table: the synopsis and the option list; or NULL */
    void (*options)(FILE *out);   /* else its own option list; NULL: the synopsis says all */
    const char *statuses;         /* its exit statuses where they are not peakfit's (print_exit_statuses) */
};

/* The worker's option list: its table is made at run time from the sweep keys. */
static void worker_options_help(FILE *out) { opt_print_help(worker_options(), out); }

static const struct command commands[] = {
    {"run", run_sweep_main, NULL, "measure every grid point, each in a fresh process, N at once: DIR/peaks.csv",
     &run_options_table, NULL, NULL},
    {"grid", grid_main, NULL,
     "check a sweep file and list its points without running them; --peaks: each one's expected peak\n"
     "  and the total (from DIR's fit with -o DIR, else from parameter and activation arithmetic)",
     &grid_options, NULL, NULL},
    {"all", all_main, NULL, "run, fit, plot and report", &run_options_table, NULL, NULL},
    {"fit", fit_main, "DIR", "fit peak = F + A*T (+ B*b*s^2) per technique: DIR/fit.csv", NULL, NULL, NULL},
    {"plot", plot_main, "DIR", "charts (gnuplot) in DIR/plots, PNG and SVG", NULL, NULL, NULL},
    {"report", report_main, NULL, "DIR/report.md: environment, grid, fits, charts, calculator", &report_options,
     NULL, NULL},
    {"calc", calc_main, NULL,
     "the largest micro-batch that fits, and the accumulation steps (without DIR: from your own numbers)",
     &calc_options, NULL, NULL},
    {"verify", verify_main, NULL,
     "run the predicted largest micro-batch under a memory limit of the budget, and the next size up",
     &verify_options, NULL, NULL},
    {"auto", auto_main, NULL,
     "the automated sweep: peakfit chooses the points until A is known to the target (DIR/auto.sweep),\n"
     "  or with --budget finds the largest micro-batch within it", &auto_options, NULL, NULL},
    {"params", params_main, NULL,
     "parameter counts and weight, gradient and AdamW bytes, from the config alone (nothing is built)",
     &params_options, NULL, NULL},
    {"columns", columns_main, "", "what each column of peaks.csv holds, as Markdown (docs/peaks-csv.md)", NULL, NULL, NULL},
    {"keys", keys_main, "", "what each key of a sweep file takes, as Markdown (docs/sweeps.md's table)", NULL, NULL,
     NULL},
    {"placeholders", placeholders_main, "",
     "a command job's placeholders, as Markdown (docs/own-script.md's table)", NULL, NULL, NULL},
    {"worker", worker_binary_exec, "--model SPEC --technique T [--batch B --seq-len S] [options]",
     "measure one point (started by run; reports on stdout by hand)", NULL, worker_options_help,
     WORKER_EXIT_STATUS_TEXT},
    {"slurm", slurm_main, NULL, "DIR/peakfit.sbatch: the sweep as a Slurm job array (--submit: sbatch it)",
     &slurm_options_table, NULL, NULL},
};
enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

/* "exit status:" and one line a number, from util/exit_status.h's rows. */
static void print_exit_statuses(FILE *out)
{
    fputs("exit status:\n", out);
#define EXIT_STATUS_LINE(name, number, help) fprintf(out, "  %3d %s\n", number, help);
    EXIT_STATUS_ROWS(EXIT_STATUS_LINE)
#undef EXIT_STATUS_LINE
}

/* What follows "peakfit NAME": written, or made from its option table. */
static const char *synopsis_of(const struct command *c, char *buf, size_t size)
{
    if (!c->opts)
        return c->synopsis;
    opt_synopsis(c->opts, buf, size);
    return buf;
}

static void print_usage(FILE *out)
{
    char synopsis[2048];
    fprintf(out, "usage: peakfit COMMAND ...    (peakfit COMMAND --help, peakfit --version or -V)\n");
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %s %s\n      %s\n", commands[i].name, synopsis_of(&commands[i], synopsis, sizeof synopsis),
                commands[i].summary);
    print_exit_statuses(out);
}

static void print_command_usage(const struct command *c, FILE *out)
{
    char synopsis[2048];
    fprintf(out, "usage: peakfit %s %s\n%s\n", c->name, synopsis_of(c, synopsis, sizeof synopsis), c->summary);
    if (c->opts || c->options) {
        fputs("options:\n", out);
        if (c->opts)
            opt_print_help(c->opts, out);
        else
            c->options(out);
    }
    if (c->statuses)
        fputs(c->statuses, out);
    else
        print_exit_statuses(out);
}

static const struct command *find_command(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "peakfit: unknown command \"%s\" (commands:", name);
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(stderr, "%s %s", i ? "," : "", commands[i].name);
    fprintf(stderr, "); peakfit --help for usage\n");
    return EXIT_BAD_INPUT;
}

static int is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }
static int is_version(const char *arg) { return strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0; }

/* Any --help or -h (is_help), or --version or -V (is_version), among a
 * command's arguments: caught here, once, so every command answers it the
 * same way and none mistakes it for a path (`fit --help` used to look for
 * --help/peaks.csv). */
static int command_asks(int argc, char **argv, int (*is)(const char *))
{
    for (int i = 2; i < argc; i++)
        if (is(argv[i]))
            return 1;
    return 0;
}

static int print_version(void)
{
    printf("peakfit %s\nlibtorch %s\ncuda %s\n", PEAKFIT_VERSION, torch_facts_version(),
           torch_facts_cuda_compiled() ? "compiled in" : "not compiled in");
    if (torch_facts_cuda_compiled()) /* compiled in, and yet no GPU may be there */
        printf("cuda devices: %s\n", torch_facts_device_available("cuda") ? "visible" : "none visible");
    return EXIT_DONE;
}

/* Started with fd 0, 1 or 2 closed (`>&- 2>&-`, some daemons), the next
 * file opened would take that number: peaks.csv would become stderr and
 * receive the progress lines, a worker's report pipe would become its
 * stdin. /dev/null on each closed one keeps those numbers taken. */
static int open_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        /* The lowest free number: this one, as every lower one is open. */
        if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (open_standard_fds() != 0)
        return EXIT_IO; /* no /dev/null: nowhere to say so either */
    numeric_error_install();
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        const struct command *c = argc > 2 ? find_command(argv[2]) : NULL;
        if (argc > 2 && !c)
            return unknown_command(argv[2]);
        if (c)
            print_command_usage(c, stdout);
        else
            print_usage(stdout);
        return EXIT_DONE;
    }
    if (is_version(argv[1]))
        return print_version();
    const struct command *c = find_command(argv[1]);
    if (!c)
        return unknown_command(argv[1]);
    if (command_asks(argc, argv, is_help)) {
        print_command_usage(c, stdout);
        return EXIT_DONE;
    }
    if (command_asks(argc, argv, is_version))
        return print_version();
    int rc = c->main(argc - 1, argv + 1);
    char why[320];
    if (numeric_error_take(why, sizeof why)) /* a command that refuses on it (calc) has taken it */
        fprintf(stderr, "peakfit: warning: a statistic could not be computed (GSL: %s): the values that depend "
                "on it are missing\n", why);
    return rc;
}
