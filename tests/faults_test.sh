# Workers that segfault, abort, are SIGKILLed, hang or exit oddly are each
# recorded with the right status and signal, and the sweep goes on.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/s.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
timeout = 3
[j]
technique = load
SWEEP
for fault in segv abort kill hang exit; do
    PEAKFIT_FAULT=$fault "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/$fault" 2>"$TMP/log" || fail "$fault: run failed: $(cat "$TMP/log")"
done
row() { "$CSVQ" "$TMP/$1/peaks.csv" status exit_code signal; }
expect_eq "segfault" "$(row segv)" "crashed	-1	11"
expect_eq "abort" "$(row abort)" "crashed	-1	6"
expect_eq "SIGKILL (as the OOM killer sends)" "$(row kill)" "killed	-1	9"
expect_eq "hang past the timeout" "$(row hang)" "timeout	-1	9"
expect_eq "odd exit code" "$(row exit)" "error	7	0"
# The baseline was reported before the fault, so it is kept.
[ -n "$("$CSVQ" "$TMP/segv/peaks.csv" baseline_rss_mib)" ] || fail "baseline lost for a crashed worker"
