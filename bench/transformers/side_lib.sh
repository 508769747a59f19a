# bench/transformers/side_lib.sh: sourced by the scripts that start one side of a
# side-by-side point (run.sh and bench/research/heap-splice.sh use its locked; bench/research/mmap-threshold.sh and
# bench/research/heap-modes.sh the rest). side_argv needs $WORKER, $PYTHON and $CONFIG; start_side and
# report_figures $TMP; LOCK is optional.

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

# side_argv KIND B S: the command line of one side at SmolLM2-135M-shaped $CONFIG, full, sdpa:
# worker (as `peakfit run` starts it), python (train_step.py as measure.py starts it: its
# defaults spelt out) or short (train_step.py with only the settings that are not defaults)
side_argv() {
    local ts=examples/transformers/train_step.py
    case $1 in
    worker) echo "$WORKER --model $CONFIG --technique full --batch $2 --seq-len $3 --threads 2 --warm 1 --steps 1 --seed 0" ;;
    python) echo "$PYTHON $ts --config $CONFIG --technique full --batch $2 --seq-len $3 --attention sdpa --steps 1 --warm 1 --seed 0 --device cpu --threads 2" ;;
    short) echo "$PYTHON $ts --config $CONFIG --technique full --batch $2 --seq-len $3 --attention sdpa --threads 2" ;;
    *) echo "side_lib.sh: no side $1" >&2; return 1 ;;
    esac
}

# report_figures: from the last start_side's report, "BASELINE_KIB PEAK_KIB TENSOR_MIB" (the
# counting allocator's peak above its baseline, - when the side does not report it)
report_figures() {
    awk -F= '{ v[$1] = $2 } END { printf "%s %s ", v["baseline_rss_kib"], v["peak_rss_kib"];
        if ("tensor_peak_bytes" in v) printf "%.1f", (v["tensor_peak_bytes"] - v["baseline_tensor_bytes"]) / 1048576;
        else printf "-"; print "" }' "$TMP/report"
}
