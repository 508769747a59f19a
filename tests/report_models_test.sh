# Two models in one peaks.csv (one named by an old-style config.json path,
# one by display name) and two failed points: every table of report.md,
# the console fit table and the breakdown chart's bars name the model;
# the failures table gives the reason and a number or nothing, never a
# word or a -1 sentinel.
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TMP/models
mkdir -p "$dir"
cp "$TESTS/fixtures/two-models-peaks.csv" "$dir/peaks.csv"

"$PEAKFIT" fit "$dir" >"$TMP/fit.out" 2>"$TMP/fit.err" || fail "fit failed: $(cat "$TMP/fit.err")"
for model in alpha beta; do
    grep -q "^$model  *cpu  *full  *rss " "$TMP/fit.out" || fail "console fit table has no $model row: $(cat "$TMP/fit.out")"
done
"$PEAKFIT" plot "$dir" 2>/dev/null || fail "plot failed"
for model in alpha beta; do
    grep -q "^\"$model\\\\nfull\\\\nb8 s256\"" "$dir/plots/breakdown.dat" ||
        fail "breakdown bar of $model: $(cat "$dir/plots/breakdown.dat")"
done
"$PEAKFIT" report "$dir" 2>/dev/null || fail "report failed"
report=$dir/report.md

# section TITLE: the lines of one section of the report
section() { awk -v t="## $1" 'index($0, t) == 1 { on = 1; next } /^## / { on = 0 } on' "$report"; }
for model in alpha beta; do
    section "Fits" | grep -q "^| $model | cpu | full | eager | tensor | 12 | quadratic |" || fail "fits table: no $model row"
    section "Fixed cost F" | grep -q "^| $model | cpu | full | eager | rss |" || fail "fixed-cost table: no $model row"
    section "Calculator" | grep -q "^| $model | cpu | full | eager | 8 GiB | 256 |" || fail "calculator: no $model row"
    section "Measurements" | grep -q "^| $model | cpu | full | eager | 8 | 256 | ok |" || fail "measurements: no $model row"
done
section "Fits" | grep -q "config.json" && fail "a model shows as its config path"
# The calculator plans as calc does by default: for a Python trainer's whole process.
calc_b=$("$PEAKFIT" calc "$dir" --model alpha --technique full --budget 8GiB --target-batch 256 2>&1 |
    sed -n 's/^  largest micro-batch that fits within its 95% interval: b = \([0-9]*\).*/\1/p')
[ -n "$calc_b" ] || fail "calc gave no largest micro-batch"
section "Calculator" | grep -q "^| alpha | cpu | full | eager | 8 GiB | 256 | $calc_b |" ||
    fail "calculator's largest b is not calc's ($calc_b): $(section Calculator | grep 'alpha | cpu | full' | head -1)"
section "Calculator" | grep -q "a Python trainer's whole process" || fail "the calculator does not say whose process"
section "Calculator" | grep -q "^| alpha | cpu | inference | eager | 8 GiB | 128 | [0-9]* | [0-9]* | - (no training) |" ||
    fail "inference has accumulation in the calculator: $(section Calculator | grep inference | head -1)"

failures=$(section "Points that did not finish")
grep -q "Out-of-memory and timed-out" <<<"$failures" && fail "the failures heading assumes every failure is an OOM"
grep -qx "| beta | cpu | full | eager | 64 | 256 | oom | 4095.8 | over mem_limit 4096 MiB: killed |" <<<"$failures" ||
    fail "oom row: $failures"
grep -qxF '| beta | cpu | full | eager | 32 | 256 | error |  | hidden_size 100 \| not a multiple of heads, "3" |' <<<"$failures" ||
    fail "error row: $failures"
grep -q "measured |" <<<"$failures" && fail "the word 'measured' where a number belongs: $failures"
section "Measurements" | grep -q -- "-1\.0\|-1 |" && fail "a -1 sentinel in the measurements table"
section "Measurements" | grep -qx "| beta | cpu | full | eager | 32 | 256 | error |  |  |  |  |" ||
    fail "unknown numbers not blank: $(section Measurements | grep error)"
true
