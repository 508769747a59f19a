# run -j 1 refuses a point predicted to need more than the free memory
# (MemAvailable): no worker starts, its row says status refused and why, and
# a second run measures it again instead of taking the refusal as done.
source "$(dirname "$0")/lib.sh"

# tiny at 10^10 tokens: terabytes by any estimate, on any machine
write_sweep "$TMP/huge.sweep" <<'SWEEP'
[j]
model = tiny
threads = 1
technique = full
batch = 100000
seq_len = 100000
SWEEP
"$PEAKFIT" run "$TMP/huge.sweep" -o "$TMP/out" -j 1 2>"$TMP/err"; rc=$?
expect_eq "every point refused: exit status" "$rc" 1
expect_eq "its status" "$("$CSVQ" "$TMP/out/peaks.csv" status)" refused
err=$("$CSVQ" "$TMP/out/peaks.csv" error)
grep -q "^not started: its predicted peak, [0-9]* MiB with the baseline, is more than the free memory now (MemAvailable [0-9]* MiB)" <<<"$err" ||
    fail "the error column does not say why: $err"
expect_eq "no worker ran" "$("$CSVQ" "$TMP/out/peaks.csv" baseline_rss_mib)" ""
grep -q "refused" "$TMP/err" || fail "the progress line does not say refused: $(cat "$TMP/err")"

# A refusal is no measurement: the next run tries the point again.
"$PEAKFIT" run "$TMP/huge.sweep" -o "$TMP/out" 2>/dev/null
expect_eq "rows after a second run" "$("$CSVQ" "$TMP/out/peaks.csv" status | tr '\n' ' ')" "refused refused "
true
