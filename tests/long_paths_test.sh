# Paths are not cut: an output directory of any length PATH_MAX allows is
# used whole, a longer one is refused up front (naming -o) without leaving
# a directory under a shorter name, and a peakfit installed at a long path
# still starts its workers.
source "$(dirname "$0")/lib.sh"
load_sweep "$TMP/s.sweep"
# long_dir ROOT N: ROOT followed by N components of 100 characters
long_dir() {
    local d=$1
    for _ in $(seq "$2"); do d=$d/$(printf 'd%.0s' $(seq 100)); done
    echo "$d"
}
out=$(long_dir "$TMP/long" 10) # over 1000 bytes
"$PEAKFIT" run "$TMP/s.sweep" -o "$out" 2>"$TMP/err" || fail "long -o: $(cat "$TMP/err")"
expect_eq "long -o: row" "$("$CSVQ" "$out/peaks.csv" status)" ok
cmp -s "$TMP/s.sweep" "$out/sweep.sweep" || fail "long -o: the sweep's copy differs"

over=$(long_dir "$TMP/over" 45) # over 4500 bytes
err=$("$PEAKFIT" run "$TMP/s.sweep" -o "$over" 2>&1); rc=$?
expect_eq "-o past PATH_MAX: exit status" "$rc" 2
expect_eq "-o past PATH_MAX: message" "$err" \
    "peakfit: -o: the output directory's path is ${#over} bytes long; at most 4032 (PATH_MAX 4096, less room for the files written in it)"
[ ! -e "$TMP/over" ] || fail "-o past PATH_MAX: a directory was made"

bindir=$(long_dir "$TMP/bin" 6)
mkdir -p "$bindir"
cp "$PEAKFIT" "$bindir/peakfit"
"$bindir/peakfit" run "$TMP/s.sweep" -o "$TMP/frombin" 2>"$TMP/err" || fail "binary at a long path: $(cat "$TMP/err")"
expect_eq "binary at a long path: row" "$("$CSVQ" "$TMP/frombin/peaks.csv" status exit_code)" "ok	0"
