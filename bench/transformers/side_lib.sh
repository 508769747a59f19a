# bench/transformers/side_lib.sh: sourced by the scripts that start one side of a
# side-by-side point (run.sh and heap-splice.sh use its locked; mmap-threshold.sh and
# heap-modes.sh both). start_side needs $TMP; LOCK is optional.

# locked CMD...: CMD under flock $LOCK when LOCK is set (a shared machine's lock for runs
# that need several GiB)
locked() { if [ -n "${LOCK:-}" ]; then flock "$LOCK" "$@"; else "$@"; fi; }

# start_side SIDE VAR=VALUE... -- CMD...: one fresh process of SIDE, with those variables:
# worker (peakfit-worker as `peakfit run` starts it) or any other (train_step.py, which reports
# on PEAKFIT_REPORT_FD). Its report in $TMP/report, its stderr in $TMP/err.
start_side() {
    local side=$1 env=()
    shift
    while [ "$1" != -- ]; do env+=("$1"); shift; done
    shift
    if [ "$side" = worker ]; then
        locked env "${env[@]}" PEAKFIT_SPAWNED_AT=1 nice -n 10 "$@" >"$TMP/report" 2>"$TMP/err"
    else
        locked env "${env[@]}" PEAKFIT_REPORT_FD=3 nice -n 10 "$@" 3>"$TMP/report" >/dev/null 2>"$TMP/err"
    fi
}
