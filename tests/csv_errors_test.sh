# Every case in tests/bad-csvs/EXPECTED (file, command, exit status, exact
# message): the broken or foreign peaks.csv is put in a fresh DIR, `peakfit
# fit DIR` or `peakfit run resume.sweep -o DIR` must print the message and
# exit with the status; when it refuses, nothing is written (no fit.csv,
# peaks.csv unchanged, no sweep copy). Cases named @... are made here:
# special files where peaks.csv belongs, and 50 MB of one-character lines.
# The cases made from a peaks.csv of this version are made here too, from
# a run of resume.sweep (tests/bad-csvs/make-current-cases.sh), so that a
# column peaks.csv gains leaves no fixture to remake.
set -o pipefail
source "$(dirname "$0")/lib.sh"
dir=$TESTS/bad-csvs
sweep=$dir/resume.sweep
current=$TMP/current
resume_peaks
"$dir/make-current-cases.sh" "$base" "$current" || fail "make-current-cases.sh failed"
expect_eq "cases made from this version's peaks.csv" "$(wc -l <"$current/EXPECTED")" 9

# make_case NAME PATH: puts case NAME at PATH
make_case() {
    case $1 in
    @directory) mkdir "$2" ;;
    @fifo) mkfifo "$2" ;;
    @dev-zero) ln -s /dev/zero "$2" ;;
    @many-short-lines) yes a | head -c 50000000 >"$2" ;;
    *) if [ -e "$dir/$1" ]; then cp "$dir/$1" "$2"; else cp "$current/$1" "$2"; fi ;;
    esac
}

n=0
while IFS=$'\t' read -r file command status expected; do
    n=$((n + 1))
    out=$TMP/$n
    mkdir -p "$out"
    csv=$out/peaks.csv
    make_case "$file" "$csv"
    before=$( [ -f "$csv" ] && md5sum <"$csv")
    if [ "$command" = fit ]; then
        timeout 60 "$PEAKFIT" fit "$out" >/dev/null 2>"$TMP/err"; rc=$?
    else
        timeout 120 "$PEAKFIT" run "$sweep" -o "$out" 2>"$TMP/err"; rc=$?
    fi
    expect_eq "$file ($command): exit status ($(cat "$TMP/err"))" "$rc" "$status"
    want=${expected//@P@/$csv}
    want=${want//@S@/$sweep}
    grep -qxF "$want" "$TMP/err" || fail "$file ($command): expected '$want', got '$(cat "$TMP/err")'"
    if [ "$status" != 0 ]; then
        [ ! -e "$out/fit.csv" ] || fail "$file: fit.csv written from unusable input"
        [ ! -e "$out/sweep.sweep" ] || fail "$file: run copied its sweep after refusing"
        expect_eq "$file ($command): peaks.csv after refusing" "$( [ -f "$csv" ] && md5sum <"$csv")" "$before"
    fi
    rm -rf "$out"
done < <(cat "$dir/EXPECTED" "$current/EXPECTED")
for f in "$dir"/*.csv "$current"/*.csv; do
    grep -q "^$(basename "$f")"$'\t' "$dir/EXPECTED" "$current/EXPECTED" || fail "$(basename "$f") has no line in EXPECTED"
done

# A broken row among good ones is skipped, the rest fitted.
mkdir "$TMP/mixed"
{ cat "$TESTS/fixtures/tiny-cpu-peaks.csv"; sed -n 2p "$dir/nan-peak.csv"; } >"$TMP/mixed/peaks.csv"
"$PEAKFIT" fit "$TMP/mixed" >/dev/null 2>"$TMP/err" || fail "mixed file: fit failed: $(cat "$TMP/err")"
grep -q "peaks.csv:29: skipped: peak_above_baseline_mib \"nan\" is not a finite number" "$TMP/err" || fail "mixed: $(cat "$TMP/err")"
expect_eq "mixed: fitted groups" "$(( $(wc -l <"$TMP/mixed/fit.csv") - 1 ))" 12

# Bad rows are reported 20 at a time: 30 of them give 20 lines and a count.
mkdir "$TMP/many"
{ cat "$TESTS/fixtures/tiny-cpu-peaks.csv"; for _ in $(seq 30); do echo x,y,z; done; } >"$TMP/many/peaks.csv"
"$PEAKFIT" fit "$TMP/many" >/dev/null 2>"$TMP/err" || fail "many bad rows: fit failed: $(cat "$TMP/err")"
expect_eq "many bad rows: lines naming a row" "$(grep -c ': skipped: has 3 fields' "$TMP/err")" 20
grep -qxF "peakfit: $TMP/many/peaks.csv: ... and 10 more bad rows skipped" "$TMP/err" || fail "many: $(cat "$TMP/err")"

# Duplicated rows are one observation each: the same fit as the original.
mkdir "$TMP/orig" "$TMP/dup"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$TMP/orig/peaks.csv"
{ cat "$TESTS/fixtures/tiny-cpu-peaks.csv"; tail -n +2 "$TESTS/fixtures/tiny-cpu-peaks.csv" | head -5; } >"$TMP/dup/peaks.csv"
"$PEAKFIT" fit "$TMP/orig" >/dev/null 2>&1 || fail "fit of the fixture failed"
"$PEAKFIT" fit "$TMP/dup" >/dev/null 2>"$TMP/err" || fail "fit of duplicated rows failed: $(cat "$TMP/err")"
expect_eq "duplicate rows: notes" "$(grep -c 'again (first at line' "$TMP/err")" 5
cmp -s "$TMP/orig/fit.csv" "$TMP/dup/fit.csv" || fail "duplicated rows change fit.csv: $(diff "$TMP/orig/fit.csv" "$TMP/dup/fit.csv")"
cmp -s "$TMP/orig/fit-residuals.csv" "$TMP/dup/fit-residuals.csv" || fail "duplicated rows change fit-residuals.csv"
