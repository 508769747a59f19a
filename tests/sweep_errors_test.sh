# Every malformed sweep in tests/bad-sweeps/ gives exactly its expected
# "FILE:LINE: message" (tests/bad-sweeps/EXPECTED), exit status 2, and
# leaves the output directory uncreated.
source "$(dirname "$0")/lib.sh"
dir=$TESTS/bad-sweeps
n=0
while IFS=$'\t' read -r file expected; do
    n=$((n + 1))
    out=$TMP/out-$n
    err=$("$PEAKFIT" run "$dir/$file" -o "$out" 2>&1); rc=$?
    expect_eq "$file: exit status" "$rc" 2
    expect_eq "$file: message" "$err" "peakfit: $dir/$file:${expected//@DIR@/$dir}"
    [ ! -e "$out" ] || fail "$file: $out was created"
done <"$dir/EXPECTED"
expect_gt "cases checked" "$n" 29
[ "$n" -eq "$(ls "$dir"/*.sweep | wc -l)" ] || fail "EXPECTED does not list every .sweep file"
err=$("$PEAKFIT" run "$TMP/none.sweep" -o "$TMP/out" 2>&1); rc=$?
expect_eq "missing sweep file: exit status" "$rc" 2
expect_eq "missing sweep file: message" "$err" "peakfit: $TMP/none.sweep: cannot open sweep file"
