#!/usr/bin/env bash
# What the macOS cross-build (make macos-build) costs from a clean state,
# as CI pays it: an empty download cache and build folder, so pip fetches
# zig and torch's macOS wheel, apt fetches the four libraries' sources,
# zig builds them and peakfit for aarch64-macos, and the check reads both
# binaries. Wall seconds and CPU seconds (user + system of every child; on
# CI's 2 cores the -j2 build takes about CPU / 2), with the load average
# around it (this machine is shared), and the script's own line per step.
# Usage: bench/macos-build-time.sh. Adds a section (one run) to OUT
# (default bench/results/macos-build-time.txt; bench/run macos-build-time:
# a file of that run alone).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/results/macos-build-time.txt}
b=$(mktemp -d /tmp/macos-build-time.XXXXXX)
trap 'rm -rf "$b"' EXIT
make -s build/tests/tools/macho_dylibs
load0=$(cut -d' ' -f1 /proc/loadavg)
/usr/bin/time -f "%e %U %S" -o "$b/time" tests/tools/macos-build.sh "$b/build" "$b/cache" >"$b/log" 2>&1 ||
    { echo "bench/macos-build-time.sh: the build failed:" >&2; tail -30 "$b/log" >&2; exit 1; }
{
    echo "# bench/macos-build-time.sh: make macos-build from a clean state (empty cache and build folder), make -j2"
    echo "# $(git rev-parse --short HEAD), $(nproc) cores, $(date -u +%F); load = /proc/loadavg's 1-minute figure before and after"
    echo "# downloaded: $(du -sh "$b/cache/wheels" | cut -f1) of wheels, $(du -sh "$b/cache/src" | cut -f1) of Debian sources"
    awk -v l0="$load0" -v l1="$(cut -d' ' -f1 /proc/loadavg)" \
        '{ printf "wall_s %.1f  cpu_s %.1f  load0 %s  load1 %s\n", $1, $2 + $3, l0, l1 }' "$b/time"
    grep -E '^(macos-build:|peakfit|macos build check)' "$b/log"
} | tee -a "$out"
