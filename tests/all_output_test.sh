# peakfit all's output, stdout and stderr into one file as make demo's
# terminal or a log gets them: the fit's table (stdout) is whole and comes
# before the lines plot and report write to stderr, never after them or
# cut by them (stdout is a block buffer in a pipe); report.html is written.
source "$(dirname "$0")/lib.sh"
cat >"$TMP/s.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
[j]
technique = inference
batch = 1, 2, 4
seq_len = 8
SWEEP
"$PEAKFIT" all "$TMP/s.sweep" -o "$TMP/out" >"$TMP/log" 2>&1 || fail "all: $(tail -n 5 "$TMP/log")"
table=$(grep -n '^model  *device  *technique' "$TMP/log" | cut -d: -f1)
wrote=$(grep -n "^peakfit: wrote $TMP/out/report.md$" "$TMP/log" | cut -d: -f1)
[ -n "$table" ] && [ -n "$wrote" ] || fail "no table or no report line: $(cat "$TMP/log")"
expect_gt "the report's line after the fit's table (line numbers)" "$wrote" "$table"
grep -n '.peakfit: ' "$TMP/log" && fail "a peakfit: line begins mid-line"
grep -qx "peakfit: wrote $TMP/out/report.html" "$TMP/log" || fail "no report.html: $(tail -n 3 "$TMP/log")"
true
