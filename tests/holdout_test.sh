# The holdout key: points measured but kept out of the fit; fit.json and
# the report give each one's prediction with its interval and the error.
source "$(dirname "$0")/lib.sh"
set -o pipefail

write_sweep "$TMP/h.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
[j]
technique = full
# tiny's b = 1 and 2 lie on the floor at s = 64: two points above the knee
# for the line (no line is drawn through a floor point)
batch = 1, 2, 4, 8
seq_len = 64
holdout = 3x64
SWEEP
grid=$("$PEAKFIT" grid "$TMP/h.sweep" 2>/dev/null) || fail "grid: exit status $?"
expect_eq "points: 4 fitted + 1 held out" "$(wc -l <<<"$grid")" 5
"$PEAKFIT" run "$TMP/h.sweep" -o "$TMP/out" 2>/dev/null || fail "run: exit status $?"
expect_eq "peaks.csv marks the held-out point" "$("$CSVQ" "$TMP/out/peaks.csv" batch holdout | tr '\t' : | sort | tr '\n' ' ')" \
    "1:0 2:0 3:1 4:0 8:0 "
"$PEAKFIT" fit "$TMP/out" >/dev/null || fail "fit: exit status $?"
expect_eq "the fit's points leave it out" "$("$CSVQ" "$TMP/out/fit.csv" metric n | grep '^rss' | cut -f2)" 4
grep -q '"holdout": \[' "$TMP/out/fit.json" && grep -q '"error_pct"' "$TMP/out/fit.json" ||
    fail "fit.json has no held-out error: $(grep -A8 '"holdout"' "$TMP/out/fit.json")"
"$PEAKFIT" report "$TMP/out" 2>/dev/null || fail "report: exit status $?"
row=$(sed -n '/^## Held-out points/,/^## /p' "$TMP/out/report.md" | grep '^| tiny | cpu | full | sdpa | 3 | 64 |') ||
    fail "no held-out row: $(sed -n '/^## Held-out points/,/^## /p' "$TMP/out/report.md")"
# | key | 3 | 64 | measured | predicted ± ci | error% | within |
measured=$(awk -F' [|] ' '{ print $7 }' <<<"$row")
predicted=$(awk -F' [|] ' '{ split($8, a, " "); print a[1] }' <<<"$row")
error=$(awk -F' [|] ' '{ print $9 }' <<<"$row")
# (from the table's rounded numbers, so within 0.2 points)
awk -v m="$measured" -v p="$predicted" -v e="${error%\%}" 'BEGIN { d = 100 * (p - m) / m - e; exit !(d < 0.2 && d > -0.2) }' ||
    fail "error $error is not (predicted $predicted - measured $measured) / measured"
json_err=$(grep -o '"error_pct": [^,}]*' "$TMP/out/fit.json" | head -1 | cut -d' ' -f2)
expect_eq "fit.json's error, rounded, is the report's" "$(printf '%+.1f%%' "$json_err")" "$error"
grep -q "^Mean absolute error over 1 held-out point: " "$TMP/out/report.md" || fail "no mean error line"

# A held-out point that the grid also has, and a malformed pair: file:line.
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 1, 2\nseq_len = 64\nholdout = 2x64\n' >"$TMP/both.sweep"
err=$("$PEAKFIT" grid "$TMP/both.sweep" 2>&1); rc=$?
expect_eq "held out and fitted: exit status" "$rc" 2
expect_eq "held out and fitted: message" "$err" \
    "peakfit: $TMP/both.sweep:1: holdout 2x64 is also in the job's batch x seq_len grid: a point cannot be both fitted and held out"
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 1, 2\nseq_len = 64\nholdout = 6by384\n' >"$TMP/bad.sweep"
err=$("$PEAKFIT" grid "$TMP/bad.sweep" 2>&1); rc=$?
expect_eq "bad pair: exit status" "$rc" 2
expect_eq "bad pair: message" "$err" \
    "peakfit: $TMP/bad.sweep:6: holdout must be batch x seq_len pairs like 6x384 (batch 1 to 1000000, seq_len 1 to 1000000), not \"6by384\""
true
# The held-out section's note names each group through report.md's escaper
# too: a model named by a config's _name_or_path holding an image and a
# link stays text in report.html.
cp -r "$TMP/out" "$TMP/named"
name='<img src=http://example.com/i.png>[l](http://example.com/)'
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
m = rows[0].index("model")
for r in rows[1:]:
    r[m] = sys.argv[2]
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)' "$TMP/named/peaks.csv" "$name"
"$PEAKFIT" report "$TMP/named" --html 2>"$TMP/err" || fail "report of the named model: $(cat "$TMP/err")"
note=$(sed -n '/^RSS.s intervals add its spread between runs/,/^## /p' "$TMP/named/report.md" | grep '^- ')
expect_eq "the held-out note's group" "${note%%: *}" \
    '- &lt;img src=http://example.com/i.png&gt;\[l\]\(http://example.com/\) / cpu / full / sdpa'
for raw in '<img src="http' '<img src=http' 'href="http'; do
    grep -nF -- "$raw" "$TMP/named/report.html" && fail "report.html holds markup from the model's name: $raw"
done
true
