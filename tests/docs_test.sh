# The documents generated from the code's tables are up to date: the
# committed docs/peaks-csv.md is `peakfit columns`' output (make docs
# writes it), so a column added to util/peaks_columns.h shows up here.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
"$PEAKFIT" columns >"$TMP/peaks-csv.md" || fail "peakfit columns failed"
diff -u "$root/docs/peaks-csv.md" "$TMP/peaks-csv.md" >"$TMP/diff" ||
    fail "docs/peaks-csv.md is not what \`peakfit columns\` prints (run make docs):
$(head -40 "$TMP/diff")"
"$PEAKFIT" columns extra 2>"$TMP/err" >/dev/null
expect_eq "columns with an argument: exit status" "$?" 2
expect_eq "columns with an argument: message" "$(cat "$TMP/err")" 'peakfit: columns takes no arguments (got "extra")'
# docs/sweeps.md's key table is `peakfit keys`' output (make docs splices it in).
"$PEAKFIT" keys | "$root/tests/tools/doc-splice.sh" "$root/docs/sweeps.md" "$TMP/sweeps.md" ||
    fail "peakfit keys | doc-splice.sh failed"
diff -u "$root/docs/sweeps.md" "$TMP/sweeps.md" >"$TMP/diff" ||
    fail "docs/sweeps.md's key table is not what \`peakfit keys\` prints (run make docs):
$(head -40 "$TMP/diff")"
"$PEAKFIT" keys extra 2>"$TMP/err" >/dev/null
expect_eq "keys with an argument: exit status" "$?" 2
expect_eq "keys with an argument: message" "$(cat "$TMP/err")" 'peakfit: keys takes no arguments (got "extra")'
