# verify on tiny with a small budget: the predicted largest micro-batch and
# the next size up run for real under mem_limit = the budget less the
# baseline (for a Python trainer's process, the default, less the process
# term too), and the output says whether the predicted boundary held (exit
# 0) or not (5).
source "$(dirname "$0")/lib.sh"
set -o pipefail

json_value() { grep -o "\"$1\": [^,}]*" <<<"$2" | cut -d' ' -f2; }

write_sweep "$TMP/v.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
[j]
technique = full
batch = 1, 2, 3, 4
seq_len = 128
SWEEP
dir=$TMP/out
"$PEAKFIT" run "$TMP/v.sweep" -o "$dir" 2>/dev/null || fail "run: exit status $?"

# The smallest budget (in whole MiB) under which calc proposes b >= 2:
# b = 2's upper prediction bound (the RSS model is not only F + A*T: its
# floor can rise and the allocator-level fit bounds it from below).
two=$("$PEAKFIT" calc "$dir" --budget 100GiB --micro-batch 2 --accum 1 --json)
budget=$(awk -v p="$(json_value predicted_peak_mib "$two")" -v c="$(json_value predicted_peak_ci95_mib "$two")" \
    'BEGIN { if (p + c > 0) printf "%d", p + c + 1 }')
b=
[ -n "$budget" ] && b=$(json_value max_micro_batch "$("$PEAKFIT" calc "$dir" --budget "${budget}MiB" --json)")
[ "${b:-0}" -ge 2 ] || budget=
[ -n "$budget" ] || fail "no budget gives b >= 2: $two"

out=$("$PEAKFIT" verify "$dir" --budget "${budget}MiB" 2>"$TMP/err"); rc=$?
[ "$rc" = 0 ] || [ "$rc" = 5 ] || fail "verify: exit status $rc: $(cat "$TMP/err")"
grep -q "^  b = $b (predicted largest): \(ok\|oom\)" <<<"$out" || fail "verify: the largest b: $out"
grep -q "^  b = $((b + 1)) (next size up): \(ok\|oom\)" <<<"$out" || fail "verify: the next size up: $out"
# For a Python trainer's process (the default) the worker runs under the
# limit at which the trainer's predicted peak reaches the budget: below the
# budget less the baseline, and the worker's own plan under that limit
# proposes the same micro-batch at the estimate.
read -r limit base < <(sed -n "s/^verify .* (a Python trainer's whole process): memory limit \([0-9.]*\) MiB above the baseline (\([0-9.]*\) MiB)$/\1 \2/p" <<<"$out")
[ -n "$limit" ] || fail "verify's first line: $(head -n 1 <<<"$out")"
expect_gt "budget less the baseline against the worker's limit" "$((budget)).0" "$(awk -v l="$limit" -v b="$base" 'BEGIN { print l + b }')"
estimate() { json_value max_micro_batch_at_estimate "$("$PEAKFIT" calc "$dir" "$@" --json)"; }
expect_eq "the worker's plan under the translated limit" \
    "$(estimate --budget "$(awk -v l="$limit" -v b="$base" 'BEGIN { printf "%.3f", l + b }')MiB" --process worker)" \
    "$(estimate --budget "${budget}MiB")"
if [ "$rc" = 0 ]; then want="the predicted boundary held"; else want="the predicted boundary did not hold"; fi
grep -q "^  $want" <<<"$out" || fail "verify: exit $rc but: $out"
# Each run: predicted vs measured, the error in % of the measured peak.
line=$(grep "^  b = $b (predicted largest): ok" <<<"$out") || fail "verify: b = $b did not run ok: $out"
# The directory names the whole group, so two groups' verifies never collide.
vdir="$dir/verify-tiny-cpu-full-sdpa-s128-${budget}MiB"
# The verify sweep has every setting of the group's rows (warm was dropped once).
for key in model device technique attention steps seed threads timeout warm optimizer zero_grad; do
    grep -q "^$key = " "$vdir/verify.sweep" || fail "verify.sweep has no $key: $(cat "$vdir/verify.sweep" 2>&1)"
done
measured=$("$CSVQ" "$vdir/peaks.csv" peak_above_baseline_mib | head -1)
read -r predicted shown error < <(sed -n 's/.*, predicted \([0-9.]*\) MiB (95%: +-[0-9.]*), measured \([0-9.]*\) MiB above baseline, error \([-+][0-9.]*\)%$/\1 \2 \3/p' <<<"$line")
[ -n "$error" ] || fail "verify: no predicted vs measured in: $line"
# The line's numbers are rounded to 0.1: the error is checked to that.
awk -v p="$predicted" -v m="$measured" -v s="$shown" -v e="$error" 'BEGIN {
    d = 100 * (p - m) / m - e; exit !(s - m < 0.051 && m - s < 0.051 && d < 0.15 && d > -0.15) }' ||
    fail "verify: measured $measured, but the line says: $line"
# The verify runs are held-out points of DIR: fit.json predicts them, the
# peak chart shows them, the report's held-out table lists them.
"$PEAKFIT" fit "$dir" >/dev/null 2>&1 || fail "fit after verify: exit status $?"
held=$(tr -d ' \n' <"$dir/fit.json" | grep -o '"holdout":\[[^]]*\]')
grep -q "\"batch\":$b,\"seq_len\":128," <<<"$held" || fail "fit.json: verify's b = $b is not a held-out point: $held"
"$PEAKFIT" plot "$dir" >/dev/null 2>&1 || fail "plot after verify: exit status $?"
grep -qs "^$((b * 128)) [0-9.]* $b 128 " "$dir"/plots/held-*.dat || fail "no held-out series holds verify's b = $b"
grep -q '"held-[0-9]*.dat" using 1:2 with points' "$dir/plots/peakfit.gp" || fail "the peak chart does not plot them"
"$PEAKFIT" report "$dir" >/dev/null 2>&1 || fail "report after verify: exit status $?"
grep -q "^| .*| $b | 128 | [0-9.]* | [0-9.]* ± [0-9.]* | [-+][0-9.]*% | \(yes\|no\) |$" "$dir/report.md" ||
    fail "report.md's held-out table lacks verify's b = $b: $(grep -A8 '^## Held-out' "$dir/report.md")"

# Nothing to verify when nothing fits; bad options name themselves.
"$PEAKFIT" verify "$dir" --budget 10MiB >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "verify, nothing fits: exit status" "$rc" 4
err=$("$PEAKFIT" verify "$dir" --budget 2048 2>&1 >/dev/null); rc=$?
expect_eq "verify, a budget without unit: exit status" "$rc" 2
expect_eq "verify, a budget without unit" "$(head -1 <<<"$err")" \
    'peakfit verify: --budget needs a unit (e.g. 24GiB, 512MiB), not "2048"'
true
