# report --html: one self-contained page (the committed SmolLM2-135M
# measurements): its tables are HTML tables, every chart is inline SVG (no
# <img>, nothing fetched), and headless Chromium renders it: the screenshot
# holds far more than a blank page's. Chromium comes with make deps
# (DEB_PACKAGES); a machine without it fails here, it does not skip.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
dir=$TMP/smol
mkdir -p "$dir"
cp "$root/bench/results/smollm2-135m-cpu/peaks.csv" "$dir/"
"$PEAKFIT" plot "$dir" 2>"$TMP/err" || fail "plot: $(cat "$TMP/err")"
"$PEAKFIT" report "$dir" --html 2>"$TMP/err" || fail "report --html: $(cat "$TMP/err")"
expect_eq "report --html says what it wrote" "$(tail -n 1 "$TMP/err")" "peakfit: wrote $dir/report.html"
html=$dir/report.html
expect_eq "charts in report.md (the headline and the five)" "$(grep -c '](plots/' "$dir/report.md")" 6
expect_eq "charts inline as SVG" "$(grep -o '<svg' "$html" | wc -l)" 6
for external in '<img' 'src="http' '<script' '<link' 'xlink:href="http'; do
    grep -qF -- "$external" "$html" && fail "report.html is not self-contained: $external"
done
expect_gt "HTML tables" "$(grep -c '<table>' "$html")" 5
grep -q '<h1>smollm2-135m on CPU AMD EPYC, libtorch 1.13.0</h1>' "$html" || fail "title: $(grep -m1 '<h1>' "$html")"
# The page renders: a screenshot, and an empty page's beside it.
shot() { "$root/tests/tools/screenshot.sh" "$1" "$2" 2>"$TMP/shot.err" || fail "$(cat "$TMP/shot.err")"; }
shot "$html" "$TMP/report.png"
printf '<!DOCTYPE html><html><body></body></html>\n' >"$TMP/empty.html"
shot "$TMP/empty.html" "$TMP/empty.png"
png_size() { od -An -j16 -N8 -tu1 "$1" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }'; }
expect_eq "screenshot size" "$(png_size "$TMP/report.png")" "1280x1000"
expect_gt "the report's screenshot against a blank page's (bytes)" "$(stat -c %s "$TMP/report.png")" \
    "$((20 * $(stat -c %s "$TMP/empty.png")))"
true
