# Started with its standard descriptors closed (cron, daemons, `>&- 2>&-`),
# the runner must not let peaks.csv or a worker's report pipe take fd 0, 1
# or 2: the progress lines would land in peaks.csv, or the report on a
# closed descriptor, and every point would be recorded as an error.
source "$(dirname "$0")/lib.sh"
set -o pipefail
load_sweep "$TMP/s.sweep" "repeats = 2"
check() { # DIR WHAT
    local csv=$1/peaks.csv
    [ -f "$csv" ] || fail "$2: no peaks.csv"
    expect_eq "$2: statuses" "$("$CSVQ" "$csv" status | tr '\n' ' ')" "ok ok "
    expect_eq "$2: lines in peaks.csv (header and 2 rows, no progress)" "$(wc -l <"$csv")" 3
    # The file is still one the runner accepts: resuming runs nothing.
    "$PEAKFIT" run "$TMP/s.sweep" -o "$1" 2>"$TMP/err" || fail "$2: resume refused: $(cat "$TMP/err")"
    grep -q "resuming: 2 of 2 points already in" "$TMP/err" || fail "$2: resume: $(cat "$TMP/err")"
}
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out12" >&- 2>&-; rc=$?
expect_eq "stdout and stderr closed: exit status" "$rc" 0
check "$TMP/out12" "stdout and stderr closed"
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out012" <&- >&- 2>&-; rc=$?
expect_eq "all three closed: exit status" "$rc" 0
check "$TMP/out012" "all three closed"
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out02" <&- 2>&-; rc=$?
expect_eq "stdin and stderr closed: exit status" "$rc" 0
check "$TMP/out02" "stdin and stderr closed"
