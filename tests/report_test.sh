# fit, plot and report on real measurements (tests/fixtures): a broken row
# is reported with its line and skipped, fit.csv has a row per group, the
# report has every section and its charts exist as non-empty PNGs.
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TMP/r
mkdir -p "$dir"
cp "$TESTS/fixtures/tiny-cpu.sweep" "$dir/sweep.sweep"
# Line 4 loses its last fields; a truncated row ends the file.
awk 'NR == 4 { print "full/tiny/cpu/full/b9,full,tiny"; next } { print }' "$TESTS/fixtures/tiny-cpu-peaks.csv" >"$dir/peaks.csv"
printf 'full/tiny/cpu/full/b99/s9/st2/r0,full,tiny,cpu,fu' >>"$dir/peaks.csv"
total=$(wc -l <"$dir/peaks.csv")

"$PEAKFIT" fit "$dir" >"$TMP/fit.out" 2>"$TMP/fit.err" || fail "fit failed: $(cat "$TMP/fit.err")"
grep -qx "peakfit: $dir/peaks.csv:4: skipped: has 3 fields, the header has 37" "$TMP/fit.err" ||
    fail "broken row not reported with its line: $(cat "$TMP/fit.err")"
grep -qx "peakfit: $dir/peaks.csv:$((total + 1)): skipped: truncated last row (the file ends inside it)" "$TMP/fit.err" ||
    fail "truncated row not reported: $(cat "$TMP/fit.err")"
# 6 techniques x 2 metrics, plus the header.
expect_eq "fit.csv rows" "$(wc -l <"$dir/fit.csv")" 13
# full's exact allocator counts are quadratic above the knee; its 3 smallest
# peaks lie on the floor, in both metrics.
expect_eq "full's model choice" "$("$CSVQ" "$dir/fit.csv" technique metric model_choice | awk '$1 == "full" && $2 == "tensor" { print $3 }')" quadratic
expect_eq "full's floor" "$("$CSVQ" "$dir/fit.csv" technique metric floor n_floor n_above_knee | awk '$1 == "full" { print $2, $3, $4, $5 }' | tr '\n' ' ')" \
    "rss 1 3 8 tensor 1 3 8 "
grep -q "^  tiny / cpu / inference / eager: seq_len does not vary (only s=128): the b\*s^2 term cannot be identified" "$TMP/fit.out" ||
    fail "no 'cannot be identified' for inference: $(cat "$TMP/fit.out")"

"$PEAKFIT" plot "$dir" 2>"$TMP/plot.err" || fail "plot failed: $(cat "$TMP/plot.err")"
for chart in peak_vs_tokens residuals breakdown throughput; do
    [ -s "$dir/plots/$chart.png" ] && [ -s "$dir/plots/$chart.svg" ] || fail "$chart not drawn"
    [ "$(head -c 4 "$dir/plots/$chart.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "$chart.png is not a PNG"
done

"$PEAKFIT" report "$dir" 2>/dev/null || fail "report failed"
report=$dir/report.md
for section in "## Environment" "## Sweep" "## Fits" "## Fixed cost F" "## Charts" "## Calculator" \
               "## Points that did not finish" "## Measurements"; do
    grep -q "^$section" "$report" || fail "report has no section '$section'"
done
grep -q "openblas" "$report" || fail "report does not name the BLAS library"
for chart in $(grep -o '](plots/[^)]*)' "$report" | tr -d '()]'); do
    [ -s "$dir/$chart" ] || fail "report references missing chart $chart"
done
# the headline chart first, then every chart in Charts
expect_eq "charts referenced" "$(grep -c '](plots/' "$report")" 5
expect_eq "the headline chart" "$(grep -m1 -o '](plots/[^)]*)' "$report")" "](plots/peak_vs_tokens.png)"

# Without gnuplot: a clear message, the data and script still written.
PATH=/nonexistent "$PEAKFIT" plot "$dir" 2>"$TMP/nognuplot.err"; rc=$?
expect_eq "plot without gnuplot: exit status" "$rc" 1
grep -q "gnuplot is not on PATH" "$TMP/nognuplot.err" || fail "no gnuplot message: $(cat "$TMP/nognuplot.err")"
[ -s "$dir/plots/peakfit.gp" ] || fail "no script without gnuplot"

# calc on the fixture, as JSON.
json=$("$PEAKFIT" calc "$dir" --budget 2GiB --target-batch 512 --replicas 4 --seq-len 256 --json) || fail "calc failed"
grep -q '"effective_batch": 512' <<<"$json" || fail "calc: $json"

# Two attention implementations of one technique: the calculator plans
# each one (calc needs the attention named where several were measured).
two=$TMP/two
mkdir -p "$two"
awk -F, -v OFS=, '
    NR == 1 { print $0, "model_source,config_hash,seed,threads_requested,timeout_s,mem_limit_mib,weights,attention"; next }
    $5 == "full" { print $0, ",,,,,,,sdpa"; eager = $0; sub(/\/full\//, "/full/eager/", eager); print eager, ",,,,,,,eager" }' \
    "$TESTS/fixtures/tiny-cpu-peaks.csv" >"$two/peaks.csv"
"$PEAKFIT" report "$two" 2>"$TMP/two.err" || fail "report of two attentions failed: $(cat "$TMP/two.err")"
calculator=$(sed -n '/^## Calculator/,/^## /p' "$two/report.md")
for attention in sdpa eager; do
    expect_eq "calculator rows for $attention" "$(grep -c "^| tiny | cpu | full | $attention | [0-9]* GiB | [0-9]* | [0-9]" <<<"$calculator")" 4
done
grep -q "no plan" <<<"$calculator" && fail "a calculator row without a plan: $(grep "no plan" <<<"$calculator")"
true
