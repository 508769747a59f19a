/* exit_status.h: what peakfit's exit status means, for every command. The
 * README's table is this one; tests/exit_status_test.sh checks each
 * command against it. */
#ifndef PEAKFIT_EXIT_STATUS_H
#define PEAKFIT_EXIT_STATUS_H

enum exit_status {
    EXIT_DONE = 0,        /* the command did what it was asked */
    EXIT_IO = 1,          /* a file could not be read or written, a process not started */
    EXIT_BAD_INPUT = 2,   /* a sweep, config, CSV, safetensors or command-line value is wrong; nothing written */
    EXIT_INTERRUPTED = 130, /* SIGINT, SIGTERM or SIGHUP: stopped cleanly, resumable */
    /* The work ran but left nothing to use: `run` measured no point
     * successfully (every row failed: see peaks.csv's status and error), or
     * `all` had nothing to fit. Shares 1 with EXIT_IO to keep the contract
     * to four numbers: either way, look at the message. */
    EXIT_NO_RESULT = 1,
    /* `calc` judging a plan (reports/calc.h): it fits at the estimate but
     * the upper end of its 95% interval (plus --margin) does not... */
    EXIT_PLAN_FITS_AT_ESTIMATE = 3,
    /* ...or it does not fit even at the estimate. 0 means it fits. */
    EXIT_PLAN_DOES_NOT_FIT = 4,
    /* `calc`: the plan fits, but the fit under it has fewer than 3 points
     * above the knee (GROUP_FIT_ABOVE_MIN): too little to rest a plan on;
     * measure larger batches first. */
    EXIT_PLAN_TOO_FEW_POINTS = 6,
    /* `verify`: the runs contradicted the predicted boundary (the largest
     * micro-batch did not fit, or the next size up did too). */
    EXIT_BOUNDARY_MISSED = 5,
    /* `verify`: a run timed out (or was not measured), so the boundary
     * was not tested: a timeout says nothing about memory. */
    EXIT_NO_VERDICT = 7
};

/* `peakfit worker` is the exception: it speaks to the runner, which reads
 * its status as the point's outcome (point/point_result.h): 0 ok, 2 a bad
 * option, 3 out of memory, 4 any other failure. */
#endif
