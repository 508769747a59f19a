/* main.c: peakfit's subcommands. */
#include <stdio.h>
#include <string.h>
#include "runner/run_sweep.h"
#include "runner/worker.h"
#include "runner/params.h"
#include "fit/fit_cmd.h"
#include "reports/calc.h"
#include "plots/plot.h"
#include "reports/report.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: peakfit COMMAND ...\n"
            "  run SWEEP -o DIR     measure every grid point, each in a fresh process\n"
            "  all SWEEP -o DIR     run, fit, plot and report\n"
            "  report DIR [--reference CSV]\n"
            "                       DIR/report.md: environment, grid, fits, charts, calculator\n"
            "  fit DIR              fit peak = F + A*T (+ B*b*s^2) per technique: DIR/fit.csv\n"
            "  plot DIR             charts (gnuplot) in DIR/plots, PNG and SVG\n"
            "  calc DIR --budget SIZE [--target-batch E] [--replicas G] [--seq-len S] [--technique T]\n"
            "       [--margin F] [--micro-batch B --accum A] [--json]\n"
            "                       the largest micro-batch that fits, and the accumulation steps\n"
            "  params MODEL [--technique T] [--lora-rank R] [--lora-targets q,v]\n"
            "                       build a model and print its parameter counts\n"
            "  worker ...           measure one point (started by run)\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return run_sweep_main(argc - 1, argv + 1);
    if (strcmp(cmd, "worker") == 0)
        return worker_main(argc - 1, argv + 1);
    if (strcmp(cmd, "fit") == 0)
        return fit_main(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0)
        return report_main(argc - 1, argv + 1);
    if (strcmp(cmd, "all") == 0)
        return all_main(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0)
        return plot_main(argc - 1, argv + 1);
    if (strcmp(cmd, "calc") == 0)
        return calc_main(argc - 1, argv + 1);
    if (strcmp(cmd, "params") == 0)
        return params_main(argc - 1, argv + 1);
    return usage();
}
