# A command job and the built-in worker measuring the same points in one
# directory are two groups (settings/group_key.h's measured_by: before it, their
# rows were one fit of twice the points), and report.md shows them side by
# side: each group's A and, point by point, both peaks and their ratio.
# The command's rows here are the worker's with both peaks times 1.02.
source "$(dirname "$0")/lib.sh"
dir=$TMP/peers
mkdir -p "$dir"
fixture=$TESTS/fixtures/tiny-cpu-peaks.csv
resume_peaks
header=$(head -1 "$base") # this version's columns
n_cols=$(tr ',' '\n' <<<"$header" | wc -l)
col() { tr ',' '\n' <<<"$header" | grep -nx "$1" | cut -d: -f1; }
# the fixture's full-technique rows (no quoted fields), in this version's
# columns: the newer ones empty but measured_by
{
    echo "$header"
    grep '^full/' "$fixture" | awk -F, -v OFS=, -v n="$n_cols" -v by="$(col measured_by)" \
        '{ for (i = NF + 1; i <= n; i++) $i = ""; $by = "worker"; print }'
    grep '^full/' "$fixture" |
        awk -F, -v OFS=, -v n="$n_cols" -v by="$(col measured_by)" -v rss="$(col peak_above_baseline_mib)" \
            -v tensor="$(col tensor_peak_mib)" \
            '{ for (i = NF + 1; i <= n; i++) $i = ""
               $1 = "script/" substr($1, 6); $2 = "script"; $rss = sprintf("%.3f", $rss * 1.02);
               $tensor = sprintf("%.3f", $tensor * 1.02); $by = "command 00000000000000aa"; print }'
} >"$dir/peaks.csv"
"$PEAKFIT" fit "$dir" >"$TMP/fit.out" 2>"$TMP/fit.err" || fail "fit: $(cat "$TMP/fit.err")"
expect_eq "groups (tensor): measured_by and n" \
    "$("$CSVQ" "$dir/fit.csv" metric measured_by n | awk -F'\t' '$1 == "tensor" { print $2 "=" $3 }' | sort | tr '\n' ';')" \
    "command 00000000000000aa=12;worker=12;"
grep -q '^  tiny / cpu / full / eager / measured_by command 00000000000000aa: ' "$TMP/fit.out" ||
    fail "fit does not name the command's group: $(cat "$TMP/fit.out")"
"$PEAKFIT" report "$dir" >"$TMP/report.out" 2>&1 || fail "report: $(cat "$TMP/report.out")"
section=$(awk '/^## The same points, measured two ways/ { on = 1; next } on && /^## / { exit } on' "$dir/report.md")
[ -n "$section" ] || fail "report.md has no section of the same points measured two ways"
for metric in rss tensor; do
    line=$(grep "^\*\*tiny / cpu / full / eager\*\*, $metric metric: A " <<<"$section") ||
        fail "no $metric line for the pair in: $section"
    expect_eq "$metric: A ratio" "$(sed 's/.*ratio \([0-9.]*\)\.$/\1/' <<<"$line")" "1.0200"
done
rows=$(grep -c '^| [0-9]* | [0-9]* | [0-9.]* | [0-9.]* | 1\.0200 |$' <<<"$section")
expect_eq "point rows with ratio 1.0200 (12 points, two metrics)" "$rows" 24
# a directory of the worker alone has no such section
grep -v ',command 00000000000000aa\(,\|$\)' "$dir/peaks.csv" >"$TMP/alone.csv"
mkdir -p "$TMP/alone" && mv "$TMP/alone.csv" "$TMP/alone/peaks.csv"
"$PEAKFIT" fit "$TMP/alone" >/dev/null 2>&1 && "$PEAKFIT" report "$TMP/alone" >/dev/null 2>&1 ||
    fail "fit or report of the worker's rows alone failed"
! grep -q 'measured two ways' "$TMP/alone/report.md" || fail "the worker's rows alone show a peer section"
true
