# plot: text from peaks.csv never reaches gnuplot as code; a chart with
# nothing to draw is left out (no gnuplot error, no 0-byte PNG); report
# links only charts that exist and says why each missing one is missing.
source "$(dirname "$0")/lib.sh"
set -o pipefail

is_png() { [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = "211PNG" ]; }

# Two models with names that would be code if pasted into the script.
dir=$TMP/hostile
mkdir -p "$dir"
evil1="a\";system \"touch $TMP/PWNED1\";plot 0 title \""
evil2="b' \`touch $TMP/PWNED2\` \$(touch $TMP/PWNED3) @x \\ ';system('touch $TMP/PWNED4');'"
csv_field() { printf '"%s"' "${1//\"/\"\"}"; }
awk -F, -v OFS=, -v m1="$(csv_field "$evil1")" -v m2="$(csv_field "$evil2")" \
    'NR == 1 { print; next } $5 == "full" { id = $1; $1 = id "-1"; $3 = m1; print; $1 = id "-2"; $3 = m2; $21 += 50; print }' \
    "$TESTS/fixtures/tiny-cpu-peaks.csv" >"$dir/peaks.csv"
"$PEAKFIT" plot "$dir" 2>"$TMP/plot.err" || fail "plot failed: $(cat "$TMP/plot.err")"
for n in 1 2 3 4; do
    [ -e "$TMP/PWNED$n" ] && fail "a model name ran a command through gnuplot (PWNED$n)"
done
for chart in peak_vs_tokens residuals breakdown throughput; do
    is_png "$dir/plots/$chart.png" || fail "$chart not drawn with hostile model names"
done
grep -c "title 'b'' \`touch" "$dir/plots/peakfit.gp" >/dev/null ||
    fail "the second model's title is not one single-quoted gnuplot string: $(grep title "$dir/plots/peakfit.gp")"

# Report before plot: the charts are not drawn yet, and gnuplot is not blamed.
fresh=$TMP/fresh
mkdir -p "$fresh"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$fresh/peaks.csv"
"$PEAKFIT" report "$fresh" 2>/dev/null || fail "report failed"
grep -qx 'No peak_vs_tokens chart: `peakfit plot DIR` has not been run yet.' "$fresh/report.md" ||
    fail "report before plot: $(grep -A8 '^## Charts' "$fresh/report.md")"
grep -q "gnuplot is not" "$fresh/report.md" && fail "report before plot blames gnuplot"
# Without gnuplot: the data and script, and the report says gnuplot is missing.
PATH=/nonexistent "$PEAKFIT" plot "$fresh" 2>/dev/null; rc=$?
expect_eq "plot without gnuplot: exit status" "$rc" 1
PATH=/nonexistent "$PEAKFIT" report "$fresh" 2>/dev/null || fail "report without gnuplot failed"
grep -q '^No peak_vs_tokens chart: gnuplot is not on PATH' "$fresh/report.md" ||
    fail "report without gnuplot: $(grep -A8 '^## Charts' "$fresh/report.md")"
grep -q '](plots/' "$fresh/report.md" && fail "report links charts that were not drawn"

# One batch size per technique: points, but no fit, so no residuals and no
# breakdown chart; the others are drawn.
single=$TMP/single
mkdir -p "$single"
awk -F, 'NR == 1 || $6 == 1' "$TESTS/fixtures/tiny-cpu-peaks.csv" | awk -F, 'NR == 1 || $7 == 128' >"$single/peaks.csv"
"$PEAKFIT" plot "$single" 2>"$TMP/single.err"; rc=$?
expect_eq "plot with nothing fittable: exit status ($(cat "$TMP/single.err"))" "$rc" 0
grep -q "gnuplot failed" "$TMP/single.err" && fail "gnuplot failed: $(cat "$TMP/single.err")"
grep -qx "peakfit: no residuals chart: no group could be fitted (each needs two distinct token counts)" "$TMP/single.err" ||
    fail "no word on the residuals chart: $(cat "$TMP/single.err")"
is_png "$single/plots/peak_vs_tokens.png" || fail "peak_vs_tokens not drawn from the points alone"
for chart in residuals breakdown; do
    [ -e "$single/plots/$chart.png" ] && fail "$chart.png written with nothing to draw"
done
find "$single/plots" -name '*.png' -size 0 | grep -q . && fail "0-byte PNG: $(find "$single/plots" -size 0)"
"$PEAKFIT" report "$single" 2>/dev/null || fail "report failed"
grep -qx "No residuals chart: no group could be fitted (each needs two distinct token counts)." "$single/report.md" ||
    fail "report on the residuals chart: $(grep -A12 '^## Charts' "$single/report.md")"
for chart in $(grep -o '](plots/[^)]*)' "$single/report.md" | tr -d '()]'); do
    [ -s "$single/$chart" ] || fail "report links missing chart $chart"
done
expect_eq "charts linked (the headline chart too)" "$(grep -c '](plots/' "$single/report.md")" 3

# No successful point at all: nothing to plot is bad input, and no gnuplot run.
none=$TMP/none
mkdir -p "$none"
awk -F, -v OFS=, 'NR == 1 { print; next } { $11 = "oom"; print }' "$TESTS/fixtures/tiny-cpu-peaks.csv" >"$none/peaks.csv"
err=$("$PEAKFIT" plot "$none" 2>&1); rc=$?
expect_eq "plot with no successful point: exit status" "$rc" 2
expect_eq "plot with no successful point: message" "$err" "peakfit: $none/peaks.csv: no successful points: no chart to draw"
[ -e "$none/plots" ] && fail "plots/ written with nothing to plot"
true
