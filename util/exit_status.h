/* exit_status.h: what peakfit's exit status means, for every command. The
 * README's table is this one; tests/exit_status_test.sh checks each
 * command against it. */
#ifndef PEAKFIT_EXIT_STATUS_H
#define PEAKFIT_EXIT_STATUS_H

/* One row a number: its name, its number, and what `peakfit --help` says
 * of it (the enum and the help are both made from these rows). */
#define EXIT_STATUS_ROWS(X)                                                                                      \
    /* the command did what it was asked */                                                                    \
    X(EXIT_DONE, 0, "done")                                                                                    \
    /* a file could not be read or written, a process not started */                                          \
    X(EXIT_IO, 1, "I/O failure (or nothing usable measured)")                                                  \
    /* a sweep, config, CSV, safetensors or command-line value is wrong; nothing written */                  \
    X(EXIT_BAD_INPUT, 2, "bad input")                                                                          \
    /* `calc` judging a plan (reports/calc.h): it fits at the estimate but the upper end of its 95%          \
     * interval (plus --margin) does not... */                                                                 \
    X(EXIT_PLAN_FITS_AT_ESTIMATE, 3, "calc: the plan fits at the estimate only (not within its 95% interval)") \
    /* ...or it does not fit even at the estimate (0 means it fits); `auto --budget`: not even the          \
     * smallest micro-batch measured fits the budget. */                                                       \
    X(EXIT_PLAN_DOES_NOT_FIT, 4, "calc: the plan does not fit; auto --budget: no micro-batch fits")            \
    /* `verify`: the runs contradicted the predicted boundary (the largest micro-batch did not fit, or the   \
     * next size up did too). */                                                                               \
    X(EXIT_BOUNDARY_MISSED, 5, "verify: the boundary did not hold")                                           \
    /* `calc`: the plan fits, but the fit under it has fewer than 3 points above the knee                     \
     * (GROUP_FIT_ABOVE_MIN): too little to rest a plan on; measure larger batches first. */                \
    X(EXIT_PLAN_TOO_FEW_POINTS, 6, "calc: the plan fits, but the fit has fewer than 3 points above the knee")  \
    /* `verify`: a run timed out (or was not measured), so the boundary was not tested: a timeout says        \
     * nothing about memory. */                                                                                \
    X(EXIT_NO_VERDICT, 7, "verify: no verdict (a run timed out)")                                             \
    /* SIGINT, SIGTERM or SIGHUP: stopped cleanly, resumable */                                               \
    X(EXIT_INTERRUPTED, 130, "interrupted")

#define EXIT_STATUS_ENUM(name, number, help) name = number,
enum exit_status {
    EXIT_STATUS_ROWS(EXIT_STATUS_ENUM)
    /* The work ran but left nothing to use: `run` measured no point
     * successfully (every row failed: see peaks.csv's status and error), or
     * `all` had nothing to fit. Shares 1 with EXIT_IO (no row of its own)
     * to keep the contract short: either way, look at the message. */
    EXIT_NO_RESULT = EXIT_IO
};
#undef EXIT_STATUS_ENUM

/* `peakfit worker` is the exception: it speaks to the runner, which reads
 * its status as the point's outcome (protocol/point_result.h): 0 ok, 2 a bad
 * option, 3 out of memory, 4 any other failure. */
#endif
