# Every broken peaks.csv in tests/bad-csvs/ makes `peakfit fit` print its
# exact message (tests/bad-csvs/EXPECTED: file, line, what is wrong), exit
# 2 and write no fit.csv; a good row beside a broken one is still used.
source "$(dirname "$0")/lib.sh"
dir=$TESTS/bad-csvs
n=0
while IFS=$'\t' read -r file expected; do
    n=$((n + 1))
    out=$TMP/$n
    mkdir -p "$out"
    cp "$dir/$file" "$out/peaks.csv"
    "$PEAKFIT" fit "$out" >/dev/null 2>"$TMP/err"; rc=$?
    expect_eq "$file: exit status" "$rc" 2
    grep -qxF "${expected//@P@/$out/peaks.csv}" "$TMP/err" || fail "$file: expected '${expected//@P@/$out/peaks.csv}', got '$(cat "$TMP/err")'"
    [ ! -e "$out/fit.csv" ] || fail "$file: fit.csv written from unusable input"
done <"$dir/EXPECTED"
expect_eq "cases checked" "$n" "$(ls "$dir"/*.csv | wc -l)"
# A broken row among good ones is skipped, the rest fitted.
mkdir "$TMP/mixed"
{ cat "$TESTS/fixtures/tiny-cpu-peaks.csv"; sed -n 2p "$dir/nan-peak.csv"; } >"$TMP/mixed/peaks.csv"
"$PEAKFIT" fit "$TMP/mixed" >/dev/null 2>"$TMP/err" || fail "mixed file: fit failed: $(cat "$TMP/err")"
grep -q "peaks.csv:29: skipped: peak_above_baseline_mib \"nan\" is not a finite number" "$TMP/err" || fail "mixed: $(cat "$TMP/err")"
expect_eq "mixed: fitted groups" "$(( $(wc -l <"$TMP/mixed/fit.csv") - 1 ))" 12
