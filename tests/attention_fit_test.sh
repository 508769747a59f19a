# Over a batch x seq_len grid on tiny, eager attention's allocator-level peak
# needs the b*s^2 term (its [b, heads, s, s] probabilities are kept for
# backward) and sdpa's does not: the F-test (with the b*s^2 term at least
# 1% of the peak) picks quadratic for eager and the straight line for sdpa. The tensor metric is the allocator's exact
# count, so the choice does not hang on RSS noise. Every point holds at least
# 512 tokens: below that, tiny's full-training peak is the optimizer step's
# floor (81.5 MiB), which no line through tokens describes.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/a.sweep" <<'SWEEP'
[grid]
model = tiny
technique = full
attention = sdpa, eager
batch = 2, 4
seq_len = 256, 512, 1024
steps = 1
threads = 1
SWEEP
"$PEAKFIT" run "$TMP/a.sweep" -o "$TMP/out" 2>"$TMP/run.log" || fail "run failed: $(tail -5 "$TMP/run.log")"
"$PEAKFIT" fit "$TMP/out" >/dev/null 2>"$TMP/fit.log" || fail "fit failed: $(cat "$TMP/fit.log")"
choice() { "$CSVQ" "$TMP/out/fit.csv" attention metric model_choice | awk -v a="$1" '$1 == a && $2 == "tensor" { print $3 }'; }
expect_eq "eager's model (tensor metric)" "$(choice eager)" quadratic
expect_eq "sdpa's model (tensor metric)" "$(choice sdpa)" linear
