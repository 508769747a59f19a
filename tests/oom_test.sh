# A point over its memory limit is recorded as oom, with its error, and
# the sweep goes on to the next point.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/s.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
[over]
technique = full
batch = 16
seq_len = 256
mem_limit = 64MiB
[fits]
technique = inference
batch = 1
seq_len = 8
SWEEP
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/log" || fail "run failed: $(cat "$TMP/log")"
got=$("$CSVQ" "$TMP/out/peaks.csv" job status exit_code)
expect_eq "rows" "$(wc -l <<<"$got")" 2
expect_eq "over-limit point" "$(sed -n 1p <<<"$got")" "over	oom	-1"
expect_eq "next point" "$(sed -n 2p <<<"$got")" "fits	ok	0"
"$CSVQ" "$TMP/out/peaks.csv" error | head -1 | grep -q "passed the memory limit of 64.0 MiB" || fail "oom row does not say which limit"
peak=$("$CSVQ" "$TMP/out/peaks.csv" peak_above_baseline_mib | head -1)
expect_gt "recorded peak of the oom point (MiB above baseline)" "$peak" 64
