# Workers that segfault, abort, are SIGKILLed, hang or exit oddly are each
# recorded with the right status and signal, and the sweep goes on. A run
# whose every point failed exits 1 and says so. The faults come from the
# tests' worker; the released one has no such hook.
source "$(dirname "$0")/lib.sh"
[ -x "$FAULT_WORKER" ] || fail "$FAULT_WORKER: not built (make test-programs builds it)"
grep -qa PEAKFIT_FAULT "$FAULT_WORKER" || fail "$FAULT_WORKER: no PEAKFIT_FAULT hook in it"
for released in "$PEAKFIT_WORKER" "$PEAKFIT"; do
    ! grep -qa PEAKFIT_FAULT "$released" || fail "$released: the released binary has the PEAKFIT_FAULT test hook"
done
# Only the hang waits for its timeout; the others must not depend on how
# fast a loaded machine starts libtorch.
load_sweep "$TMP/hang.sweep" "timeout = 3"
load_sweep "$TMP/s.sweep" "timeout = 120"
for fault in segv abort kill hang exit; do
    s=$TMP/s.sweep; [ $fault = hang ] && s=$TMP/hang.sweep
    PEAKFIT_FAULT=$fault PEAKFIT_WORKER=$FAULT_WORKER "$PEAKFIT" run "$s" -o "$TMP/$fault" 2>"$TMP/log"; rc=$?
    expect_eq "$fault: exit status (no point succeeded)" "$rc" 1
    expect_eq "$fault: last message" "$(tail -n 1 "$TMP/log")" \
        "peakfit: no point succeeded (1 failed: see the status and error columns of $TMP/$fault/peaks.csv)"
done
row() { "$CSVQ" "$TMP/$1/peaks.csv" status exit_code signal; }
expect_eq "segfault" "$(row segv)" "crashed	-1	11"
expect_eq "abort" "$(row abort)" "crashed	-1	6"
expect_eq "SIGKILL (as the OOM killer sends)" "$(row kill)" "killed	-1	9"
expect_eq "hang past the timeout" "$(row hang)" "timeout	-1	9"
expect_eq "odd exit code" "$(row exit)" "error	7	0"
# The baseline was reported before the fault, so it is kept.
[ -n "$("$CSVQ" "$TMP/segv/peaks.csv" baseline_rss_mib)" ] || fail "baseline lost for a crashed worker"
# Resumed, the directory holds a failure from before: nothing new ran, so
# nothing new failed.
PEAKFIT_FAULT=segv PEAKFIT_WORKER=$FAULT_WORKER "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/segv" 2>"$TMP/log" || fail "resume of a finished sweep: $(cat "$TMP/log")"
