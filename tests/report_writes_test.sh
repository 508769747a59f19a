# fit, plot and report write through a temporary file and rename: on a
# directory that cannot be written (immutable) or a full disk they exit 1
# (I/O) with the reason, and leave no 0-byte or half-written file, the old
# one as it was. Runs as root: chmod would not stop root, so the directory
# is made immutable (chattr +i) and the disk is a small tmpfs.
source "$(dirname "$0")/lib.sh"
set -o pipefail
ro=$TMP/ro full=$TMP/full
cleanup() {
    chattr -i "$ro" 2>/dev/null
    mountpoint -q "$full" && umount "$full"
    rm -rf "$TMP"
}
trap cleanup EXIT

# expect_io WHAT EXPECTED-MESSAGE COMMAND...: exit 1 and that message.
expect_io() {
    local what=$1 expected=$2 err rc
    shift 2
    err=$("$PEAKFIT" "$@" 2>&1 >/dev/null); rc=$?
    expect_eq "$what: exit status" "$rc" 1
    expect_eq "$what: message" "$(grep -v '^peakfit: no .* chart:' <<<"$err")" "$expected"
}

ran=0
mkdir -p "$ro"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$ro/peaks.csv"
if chattr +i "$ro" 2>/dev/null && ! touch "$ro/probe" 2>/dev/null; then
    ran=1
    expect_io "fit, immutable directory" "peakfit: $ro/fit.csv: cannot write: Operation not permitted" fit "$ro"
    expect_io "report, immutable directory" "peakfit: $ro/report.md: cannot write: Operation not permitted" report "$ro"
    expect_io "plot, immutable directory" "peakfit: $ro/plots: cannot create: Operation not permitted" plot "$ro"
    expect_eq "files in the immutable directory" "$(ls "$ro")" "peaks.csv"
    chattr -i "$ro"
fi

mkdir -p "$full"
if mount -t tmpfs -o size=256k tmpfs "$full" 2>/dev/null; then
    ran=1
    cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$full/peaks.csv"
    echo "the old report" >"$full/report.md"
    echo "the old fit" >"$full/fit.csv"
    dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null # until the disk is full
    expect_io "report, full disk" "peakfit: $full/report.md: cannot write: No space left on device" report "$full"
    expect_io "fit, full disk" "peakfit: $full/fit.csv: cannot write: No space left on device" fit "$full"
    expect_eq "report.md after a full disk" "$(cat "$full/report.md")" "the old report"
    expect_eq "fit.csv after a full disk" "$(cat "$full/fit.csv")" "the old fit"
    ls "$full" | grep -q '\.tmp\.' && fail "a temporary file left on the full disk: $(ls "$full")"
    umount "$full"
fi
[ $ran = 1 ] || skip "neither chattr +i nor a tmpfs mount works here (needs root)"
true
