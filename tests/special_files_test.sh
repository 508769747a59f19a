# A FIFO or a directory where DIR/peaks.csv belongs is refused at once: run
# must not block on it while holding the directory's lock (which would
# also keep every later runner out).
source "$(dirname "$0")/lib.sh"
load_sweep "$TMP/s.sweep"
mkdir -p "$TMP/fifo" "$TMP/dir/peaks.csv"
mkfifo "$TMP/fifo/peaks.csv"
for kind in fifo dir; do
    timeout 60 "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/$kind" 2>"$TMP/err"; rc=$?
    [ $rc -ne 124 ] || fail "$kind at peaks.csv: run blocked on it"
    [ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "$kind at peaks.csv: exit status $rc: $(cat "$TMP/err")"
    grep -q "^peakfit: $TMP/$kind/peaks.csv: " "$TMP/err" || fail "$kind at peaks.csv: message: $(cat "$TMP/err")"
done
grep -qF "is a FIFO" <(timeout 60 "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/fifo" 2>&1) ||
    fail "a FIFO peaks.csv is not called one"
# Nothing was left holding the lock: with the FIFO gone, a run goes ahead.
rm "$TMP/fifo/peaks.csv"
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/fifo" 2>"$TMP/err" || fail "run after the FIFO went: $(cat "$TMP/err")"
