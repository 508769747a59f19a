/* main.c: peakfit's subcommands. */
#include <stdio.h>
#include <string.h>
#include "fit/fit_cmd.h"
#include "plots/plot.h"
#include "reports/calc.h"
#include "reports/report.h"
#include "runner/params.h"
#include "runner/run_sweep.h"
#include "runner/worker.h"

struct command {
    const char *name;
    int (*main)(int argc, char **argv);
};

static const struct command commands[] = {
    {"run", run_sweep_main}, {"grid", grid_main}, {"all", all_main},   {"fit", fit_main},       {"plot", plot_main},
    {"report", report_main}, {"calc", calc_main}, {"params", params_main}, {"worker", worker_main},
};

static int usage(void)
{
    fprintf(stderr,
            "usage: peakfit COMMAND ...\n"
            "  run SWEEP -o DIR     measure every grid point, each in a fresh process: DIR/peaks.csv\n"
            "  grid SWEEP           check a sweep file and list its points without running them\n"
            "  all SWEEP -o DIR     run, fit, plot and report\n"
            "  fit DIR              fit peak = F + A*T (+ B*b*s^2) per technique: DIR/fit.csv\n"
            "  plot DIR             charts (gnuplot) in DIR/plots, PNG and SVG\n"
            "  report DIR [--reference CSV]\n"
            "                       DIR/report.md: environment, grid, fits, charts, calculator\n"
            "  calc DIR --budget SIZE [--target-batch E] [--replicas G] [--seq-len S] [--technique T]\n"
            "       [--model M] [--margin F] [--micro-batch B --accum A] [--json]\n"
            "                       the largest micro-batch that fits, and the accumulation steps\n"
            "  params MODEL [--technique T] [--lora-rank R] [--lora-targets q,v]\n"
            "                       build a model and print its parameter counts\n"
            "  worker ...           measure one point (started by run; reports on stdout by hand)\n");
    return 2;
}

int main(int argc, char **argv)
{
    for (size_t i = 0; argc >= 2 && i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].main(argc - 1, argv + 1);
    return usage();
}
