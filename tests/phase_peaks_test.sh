# Per-phase peaks on tiny, full training: the optimizer step's peak
# (weights, grads, AdamW state and its temporaries) does not grow with the
# batch; the forward and backward peaks do. run writes them as peaks.csv
# columns (above the baselines), and inference has only a forward.
source "$(dirname "$0")/lib.sh"
set -o pipefail

point() { "$PEAKFIT" worker --model tiny --technique "$1" --batch "$2" --seq-len 64 --steps 2 --threads 1; }
r1=$(point full 1) || fail "worker b=1: exit status $?"
r8=$(point full 8) || fail "worker b=8: exit status $?"
mib() { awk -v b="$(worker_value "$1" "$2")" 'BEGIN { printf "%.3f", b / 1048576 }'; }

for phase in forward backward optimizer; do
    [ -n "$(worker_value ${phase}_peak_bytes "$r1")" ] || fail "no ${phase}_peak_bytes: $r1"
    [ -n "$(worker_value ${phase}_end_rss_kib "$r1")" ] || fail "no ${phase}_end_rss_kib: $r1"
done
# b = 8 holds 7 more samples of activations (tiny: over 1 MiB each at s = 64).
expect_gt "forward peak grows with the batch" "$(mib forward_peak_bytes "$r8")" "$(awk -v a="$(mib forward_peak_bytes "$r1")" 'BEGIN { print a + 5 }')"
expect_gt "backward peak grows with the batch" "$(mib backward_peak_bytes "$r8")" "$(awk -v a="$(mib backward_peak_bytes "$r1")" 'BEGIN { print a + 5 }')"
o1=$(mib optimizer_peak_bytes "$r1")
o8=$(mib optimizer_peak_bytes "$r8")
awk -v a="$o1" -v b="$o8" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * a) }' ||
    fail "optimizer-phase peak depends on the batch: $o1 MiB at b=1, $o8 MiB at b=8"
# It holds at least the weights, grads and AdamW state (tiny: 20 + 20 + 40 MiB).
state=$(awk -v w="$(worker_value weight_bytes "$r1")" -v o="$(worker_value optimizer_bytes "$r1")" \
    'BEGIN { printf "%.3f", (2 * w + o) / 1048576 }')
expect_gt "optimizer-phase peak holds weights, grads and state ($state MiB)" "$o1" "$(awk -v s="$state" 'BEGIN { print s - 0.01 }')"

ri=$(point inference 4) || fail "worker inference: exit status $?"
[ -n "$(worker_value forward_peak_bytes "$ri")" ] || fail "inference has no forward peak: $ri"
[ -z "$(worker_value backward_peak_bytes "$ri")" ] || fail "inference has a backward peak: $ri"

# Through run: the columns, above the baselines; inference's later phases empty.
write_sweep "$TMP/p.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
seq_len = 64
[j]
technique = full, inference
batch = 2
SWEEP
"$PEAKFIT" run "$TMP/p.sweep" -o "$TMP/out" 2>/dev/null || fail "run: exit status $?"
csv="$TMP/out/peaks.csv"
rows=$("$CSVQ" "$csv" technique forward_peak_mib backward_peak_mib optimizer_peak_mib optimizer_end_rss_mib \
    tensor_peak_mib) || fail "csvq: $rows"
field() { awk -F'\t' -v t="$1" -v n="$2" '$1 == t { print $n }' <<<"$rows"; }
expect_gt "full: optimizer peak above baseline" "$(field full 4)" 0
expect_gt "full: optimizer end RSS above baseline" "$(field full 5)" 0
awk -v t="$(field full 6)" -v f="$(field full 2)" -v b="$(field full 3)" -v o="$(field full 4)" \
    'BEGIN { m = f; if (b > m) m = b; if (o > m) m = o; d = t - m; if (d < 0) d = -d; exit !(d < 0.01) }' ||
    fail "the step's tensor peak is not the highest phase peak: $rows"
expect_gt "inference: forward peak" "$(field inference 2)" 0
[ -z "$(field inference 3)$(field inference 4)" ] || fail "inference has backward/optimizer peaks: $rows"

# The report's section on the floor: a row per full point with its phases,
# which bound set it (floor or line) and the highest phase; a summary line
# per group (the floor and the knee, or none), never nan.
printf '[global]\nmodel = tiny\nthreads = 1\nseq_len = 64\n[j]\ntechnique = full\nbatch = 1, 4, 8\n' >"$TMP/h.sweep"
"$PEAKFIT" run "$TMP/h.sweep" -o "$TMP/h" 2>/dev/null || fail "run of the hinge sweep: exit status $?"
"$PEAKFIT" report "$TMP/h" 2>/dev/null || fail "report: exit status $?"
phases=$(sed -n '/^## The floor and the knee/,/^## /p' "$TMP/h/report.md")
expect_eq "rows of the phase table" \
    "$(grep -c '^| tiny | cpu | full | sdpa | [148] | 64 | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* | \(floor\|line\) | [a-z]* |$' <<<"$phases")" 3
grep -q '^- \*\*tiny / cpu / full / sdpa\*\*: \(no floor: all 3 points on the line\|floor P = [0-9.]* MiB\)' <<<"$phases" ||
    fail "no floor line: $phases"
grep -qi nan <<<"$phases" && fail "nan in the phase section: $phases"
true
