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
# The copy of the sweep (sweep.sweep, as run keeps it, or a shared
# directory's) is shown as it is: a bare CR (grid and run take one in a
# comment) or a line of ``` cannot end its code block, so its links and
# images stay text, and no image path reaches a file outside plots/
# (../evil.png would have inlined ../evil.svg, script and all).
printf '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n' >"$TMP/evil.svg"
printf '[j]\nmodel = tiny # a comment\r```\r![r](http://example.com/r.png) [l](http://example.com/)\n```\n![e](../evil.png) ![r2](http://example.com/r2.png)\n````\ntechnique = full\n' >"$dir/sweep.sweep"
"$PEAKFIT" report "$dir" --html 2>"$TMP/err" || fail "report with a hostile sweep copy: $(cat "$TMP/err")"
for raw in '<img src="http' 'href="http' '<script' '<img src="../'; do
    grep -nF -- "$raw" "$dir/report.html" && fail "report.html holds markup from the sweep copy: $raw"
done
want='`````ini
[j]
model = tiny # a comment ``` ![r](http://example.com/r.png) [l](http://example.com/)
```
![e](../evil.png) ![r2](http://example.com/r2.png)
````
technique = full
`````'
expect_eq "report.md's sweep section" "$(sed -n '/^## Sweep$/,/^## /p' "$report" | sed -n '3,10p')" "$want"
true
