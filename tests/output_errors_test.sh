# Output problems are clear errors before the sweep starts, exit 1 (I/O,
# util/exit_status.h): an output path that cannot be a directory, a full
# disk, and a second runner on a directory that one is already writing to,
# even after the lock file was deleted.
source "$(dirname "$0")/lib.sh"
load_sweep "$TMP/s.sweep" "repeats = 3" "timeout = 20"
touch "$TMP/file"
err=$("$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/file/out" 2>&1); rc=$?
expect_eq "output under a file: exit status" "$rc" 1
expect_eq "output under a file: message" "$err" "peakfit: $TMP/file/out: cannot create output directory: Not a directory"

# A full disk: a small tmpfs, filled, in a mount namespace of our own (no
# real root needed). Skipped where user namespaces are not allowed.
if unshare -rm true 2>/dev/null; then
    mkdir "$TMP/full"
    err=$(unshare -rm sh -c 'mount -t tmpfs -o size=16k tmpfs "$1" || exit 99
        cat /dev/zero >"$1/filler" 2>/dev/null
        exec "$2" run "$3" -o "$1" 2>&1' sh "$TMP/full" "$PEAKFIT" "$TMP/s.sweep"); rc=$?
    expect_eq "full disk: exit status" "$rc" 1
    expect_eq "full disk: message" "$err" "peakfit: $TMP/full/peaks.csv: cannot write: No space left on device"
else
    echo "output_errors_test: skipped the full-disk case: no user namespaces here (unshare -rm)" >&2
fi

# second_runner WHAT DIR LOCKED [PREPARE]: while a first runner holds DIR
# (its worker hangs, so until killed), after running PREPARE, a second
# runner is refused, naming LOCKED, and writes nothing.
second_runner() {
    PEAKFIT_FAULT=hang PEAKFIT_WORKER=$FAULT_WORKER "$PEAKFIT" run "$TMP/s.sweep" -o "$2" 2>/dev/null &
    local first=$!
    for _ in $(seq 100); do [ -f "$2/peaks.csv" ] && break; sleep 0.1; done
    ${4:-true}
    err=$("$PEAKFIT" run "$TMP/s.sweep" -o "$2" 2>&1); rc=$?
    kill -INT $first; wait $first
    expect_eq "$1: exit status" "$rc" 1
    expect_eq "$1: message" "$err" "peakfit: $2: another peakfit run is writing to this directory ($3 is locked)"
    expect_eq "$1: rows written" "$("$CSVQ" "$2/peaks.csv" point_id | wc -l)" 0
}
second_runner "second runner" "$TMP/busy" "$TMP/busy/.peakfit.lock"
# Deleting the lock file under a running runner does not let a second one
# in: peaks.csv itself is locked too.
second_runner "second runner after the lock file was deleted" "$TMP/deleted" "$TMP/deleted/peaks.csv" \
    "rm $TMP/deleted/.peakfit.lock"
