# report --reference: the reference's model is checked against ours (a
# model column; without one, a warning); unmatched rows say "not
# measured" (never nan); a reference that cannot be read, is malformed or
# measured another model is exit 2 with the reason, and report.md is left
# exactly as it was.
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TMP/r
mkdir -p "$dir"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$dir/peaks.csv"
ref=$TESTS/fixtures/reference-smollm2.csv

# No model column: a warning, and the report says it was not checked.
"$PEAKFIT" report "$dir" --reference "$ref" 2>"$TMP/err" || fail "report --reference failed: $(cat "$TMP/err")"
grep -qx "peakfit: warning: $ref has no model column: cannot check that it measured the same model as ours (tiny)" \
    "$TMP/err" || fail "no warning about the missing model column: $(cat "$TMP/err")"
grep -q "The reference names no model" "$dir/report.md" || fail "the report does not say the model was not checked"
grep -qi "nan" "$dir/report.md" && fail "nan in the report: $(grep -i nan "$dir/report.md")"
grep -qx "| bf16 | [+-][0-9]*% | not measured |" "$dir/report.md" ||
    fail "a saving we did not measure: $(grep '^| bf16 |' "$dir/report.md")"
# The fixture predates the attention column: its rows are eager's, RSS and allocator each with a ratio.
grep -q "^| model | work | technique | batch | seq_len | published (MB) | eager, RSS | ratio | eager, allocator | ratio |$" \
    "$dir/report.md" || fail "no eager columns: $(grep '^| model | work' "$dir/report.md")"
grep -q "^|  | full_training | full | 8 | 256 | 6484 | [0-9]* | [0-9.]* | [0-9]* | [0-9.]* |$" "$dir/report.md" ||
    fail "full at b=8 s=256 not compared: $(grep full_training "$dir/report.md")"
# Growth per sample between published batches 4 and 8: (6484 - 4741) / 4.
grep -q "^| full | 256 | 4 → 8 | 436 | [0-9]* | [0-9.]* | [0-9]* | [0-9.]* |$" "$dir/report.md" ||
    fail "no growth per sample for batch 4 to 8: $(grep '^| full | 256 |' "$dir/report.md")"
# And over the whole published series, the least-squares slope: 505 MB per
# sample published; the fixture's own peaks at batch 1, 2, 4, 8 give 76 (RSS)
# and 64 (allocator).
grep -qx "| full | 256 | 1, 2, 4, 8 (least squares) | 505 | 76 | 0.15 | 64 | 0.13 |" "$dir/report.md" ||
    fail "no least-squares growth over batches 1, 2, 4, 8: $(grep '^| full | 256 |' "$dir/report.md")"

# with_model FILE MODEL: the reference with a model column
with_model() { awk -F, -v OFS=, -v m="$2" 'NR == 1 { print "model", $0; next } { print m, $0 }' "$ref" >"$1"; }
with_model "$TMP/tiny.csv" tiny
"$PEAKFIT" report "$dir" --reference "$TMP/tiny.csv" 2>"$TMP/err" || fail "same model refused: $(cat "$TMP/err")"
grep -q "warning" "$TMP/err" && fail "a warning with the model checked: $(cat "$TMP/err")"
grep -q "^| tiny | full_training | full | 8 | 256 | 6484 | [0-9]* | [0-9.]* | [0-9]* | [0-9.]* |$" "$dir/report.md" ||
    fail "rows of the same model not compared"

# expect_refused WHAT REFERENCE MESSAGE: exit 2, that message, report.md as it was.
expect_refused() {
    local before err rc
    before=$(md5sum <"$dir/report.md")
    err=$("$PEAKFIT" report "$dir" --reference "$2" 2>&1); rc=$?
    expect_eq "$1: exit status" "$rc" 2
    expect_eq "$1: message" "$err" "$3"
    expect_eq "$1: report.md untouched" "$(md5sum <"$dir/report.md")" "$before"
    ls "$dir" | grep -q '\.tmp\.' && fail "$1: a temporary file left behind"
    true
}
with_model "$TMP/smollm2.csv" SmolLM2-135M
expect_refused "another model" "$TMP/smollm2.csv" \
    "peakfit: $TMP/smollm2.csv:2: measured model \"SmolLM2-135M\", but the results hold tiny: not comparable"
sed '4s/1269/lots/' "$ref" >"$TMP/number.csv"
expect_refused "a bad number" "$TMP/number.csv" \
    "peakfit: $TMP/number.csv:4: peak_above_baseline_mb \"lots\" is not a number of megabytes"
sed '5s/,256,/,s256,/' "$ref" >"$TMP/seq.csv"
expect_refused "a bad seq_len" "$TMP/seq.csv" \
    "peakfit: $TMP/seq.csv:5: batch \"1\" or seq_len \"s256\" is not a whole number from 0 to 1000000"
cut -d, -f1-4 "$ref" >"$TMP/columns.csv"
expect_refused "a missing column" "$TMP/columns.csv" \
    "peakfit: $TMP/columns.csv:1: no column peak_above_baseline_mb (a reference needs work, technique, batch, seq_len, peak_above_baseline_mb, and may have model)"
{ cat "$ref"; echo "bf16_training,bf16,8"; } >"$TMP/short.csv"
expect_refused "a short row" "$TMP/short.csv" \
    "peakfit: $TMP/short.csv:14: has 3 fields, the header has 5"
head -n 1 "$ref" >"$TMP/empty.csv"
expect_refused "no rows" "$TMP/empty.csv" "peakfit: $TMP/empty.csv: no rows"

# RFC 4180 lets the last row go without its end of line; a spreadsheet's
# UTF-8 byte order mark is read past: both compare as the plain file does.
# report_text: report.md but the line naming the reference's path
report_text() { grep -v '^Reference: ' "$dir/report.md" | md5sum; }
plain=$(report_text)
printf '%s' "$(cat "$TMP/tiny.csv")" >"$TMP/no-newline.csv"
"$PEAKFIT" report "$dir" --reference "$TMP/no-newline.csv" 2>"$TMP/err" ||
    fail "a reference without a final newline refused: $(cat "$TMP/err")"
expect_eq "a reference without a final newline: report" "$(report_text)" "$plain"
{ printf '\xef\xbb\xbf'; cat "$TMP/tiny.csv"; } >"$TMP/bom.csv"
"$PEAKFIT" report "$dir" --reference "$TMP/bom.csv" 2>"$TMP/err" || fail "a reference with a BOM refused: $(cat "$TMP/err")"
expect_eq "a reference with a BOM: report" "$(report_text)" "$plain"
{ printf '\xff\xfe'; cat "$TMP/tiny.csv"; } >"$TMP/utf16.csv"
expect_refused "a UTF-16 byte order mark" "$TMP/utf16.csv" \
    "peakfit: $TMP/utf16.csv:1: starts with a UTF-16 byte order mark: save it as UTF-8 CSV"
before=$(md5sum <"$dir/report.md")
"$PEAKFIT" report "$dir" --reference "$TMP/missing.csv" 2>"$TMP/err"; rc=$?
expect_eq "a missing reference: exit status" "$rc" 2
grep -q "^peakfit: $TMP/missing.csv: cannot open" "$TMP/err" || fail "a missing reference: $(cat "$TMP/err")"
grep -q "cannot write" "$TMP/err" && fail "a missing reference blamed on writing: $(cat "$TMP/err")"
expect_eq "a missing reference: report.md untouched" "$(md5sum <"$dir/report.md")" "$before"
true
