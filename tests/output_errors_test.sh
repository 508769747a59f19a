# Output problems are clear errors before the sweep starts, exit 1 (I/O,
# util/exit_status.h): an output path that cannot be a directory, a full
# disk, and a second runner on a directory that one is already writing to,
# even after the lock file was deleted.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/s.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
timeout = 20
[j]
technique = load
repeats = 3
SWEEP
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

# The first runner's worker hangs, so it holds the lock until killed.
PEAKFIT_FAULT=hang "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/busy" 2>/dev/null &
first=$!
for _ in $(seq 100); do [ -f "$TMP/busy/peaks.csv" ] && break; sleep 0.1; done
err=$("$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/busy" 2>&1); rc=$?
kill -INT $first; wait $first
expect_eq "second runner: exit status" "$rc" 1
expect_eq "second runner: message" "$err" \
    "peakfit: $TMP/busy: another peakfit run is writing to this directory ($TMP/busy/.peakfit.lock is locked)"
expect_eq "rows written while locked out" "$("$CSVQ" "$TMP/busy/peaks.csv" point_id | wc -l)" 0

# Deleting the lock file under a running runner does not let a second one
# in: peaks.csv itself is locked too.
PEAKFIT_FAULT=hang "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/deleted" 2>/dev/null &
first=$!
for _ in $(seq 100); do [ -f "$TMP/deleted/peaks.csv" ] && break; sleep 0.1; done
rm "$TMP/deleted/.peakfit.lock"
err=$("$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/deleted" 2>&1); rc=$?
kill -INT $first; wait $first
expect_eq "second runner after the lock file was deleted: exit status" "$rc" 1
expect_eq "second runner after the lock file was deleted: message" "$err" \
    "peakfit: $TMP/deleted: another peakfit run is writing to this directory ($TMP/deleted/peaks.csv is locked)"
expect_eq "rows written by the second runner" "$("$CSVQ" "$TMP/deleted/peaks.csv" point_id | wc -l)" 0
