# peaks.csv's columns are only ever appended: a file written by any version
# reads back because every column keeps its place. The fixed columns
# (settings/peaks_columns.h's PEAKS_FIXED_COLUMNS, written once) are
# tests/fixtures/peaks-columns.txt, one a line, and stay exactly those;
# after them come only the settings' own columns (settings/setting_rows.h,
# NEW_COLUMN: what says "the sweep's `name`"), then the later measured
# ones (PEAKS_LATER_COLUMNS). A measured column added among the fixed ones
# would move every setting's column: this test names it.
source "$(dirname "$0")/lib.sh"
fixture=$TESTS/fixtures/peaks-columns.txt
"$PEAKFIT" columns | sed -n 's/^| `\([a-z0-9_]*\)` | [^|]* | [^|]* | \(.*\) |$/\1 \2/p' >"$TMP/now"
[ -s "$TMP/now" ] || fail "peakfit columns lists no column"
n=$(wc -l <"$fixture")
head -n "$n" "$TMP/now" | cut -d' ' -f1 >"$TMP/head"
diff "$fixture" "$TMP/head" >"$TMP/diff" ||
    fail "a fixed column moved, went or was added (fixture < > now): $(head -4 "$TMP/diff")"
# After the fixed ones: the settings' columns, then the later measured ones.
later=0
while read -r name what; do
    case $what in
    "the sweep's \`$name\`"*) [ $later = 0 ] || fail "setting column $name after a later measured column: it moved it" ;;
    *) later=1 ;;
    esac
done < <(tail -n +$((n + 1)) "$TMP/now")
expect_eq "columns read" "$(wc -l <"$TMP/now")" "$("$PEAKFIT" columns | grep -c '^| `')"
