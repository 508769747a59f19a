# report.md is Markdown that viewers render with HTML: a model name (from
# a config's _name_or_path) or a reference-CSV field that holds a tag, a
# link or table syntax must come out as the text it is, never as markup.
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TMP/r
mkdir -p "$dir"
name='<img src=x onerror=alert(1)>*[x](javascript:alert(1))*|`code`'
awk -F, -v OFS=, -v name="$name" 'NR > 1 { $3 = name } { print }' "$TESTS/fixtures/tiny-cpu-peaks.csv" >"$dir/peaks.csv"
{
    echo "model,work,technique,batch,seq_len,peak_above_baseline_mb"
    echo "$name,<script>alert(1)</script>,full,1,64,100"
    echo "$name,[x](javascript:alert(1)),full,2,64,120"
} >"$TMP/ref.csv"
"$PEAKFIT" plot "$dir" >/dev/null 2>&1 || fail "plot"
"$PEAKFIT" report "$dir" --reference "$TMP/ref.csv" --html 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
# report.html, rendered from it by libcmark-gfm, the charts' SVG inline
# (gnuplot writes the title's < as &lt;): the text, never the markup.
expect_gt "charts inline" "$(grep -o '<svg' "$dir/report.html" | wc -l)" 2
for raw in '<img src=x' '<script' 'href="javascript:'; do
    grep -nF -- "$raw" "$dir/report.html" && fail "report.html holds raw markup $raw"
done
grep -qF '&lt;img src=x onerror=alert(1)&gt;' "$dir/report.html" || fail "report.html lost the model's name"
report=$dir/report.md
for raw in '<img' '<script' '](javascript:' '[x]' '`code`'; do
    grep -nF -- "$raw" "$report" && fail "report.md holds raw markup $raw"
done
# The text is all there, escaped: each cell still one cell.
escaped='&lt;img src=x onerror=alert\(1\)&gt;\*\[x\]\(javascript:alert\(1\)\)\*\|\`code\`'
grep -qF "| $escaped | cpu | full |" "$report" || fail "no escaped model cell: $(grep -m1 'onerror' "$report")"
grep -qF '| &lt;script&gt;alert\(1\)&lt;/script&gt; | full | 1 | 64 | 100 |' "$report" ||
    fail "no escaped work cell: $(grep -m1 'script' "$report")"
# The report's title, from the directory, goes through the same escape.
mkdir -p "$TMP/<b>x"
cp "$dir/peaks.csv" "$TMP/<b>x/"
"$PEAKFIT" report "$TMP/<b>x" 2>"$TMP/err" || fail "report in <b>x: $(cat "$TMP/err")"
grep -q '<b>' "$TMP/<b>x/report.md" && fail "raw <b> in the report: $(grep '<b>' "$TMP/<b>x/report.md")"
true
