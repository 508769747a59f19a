#!/usr/bin/env bash
# make valgrind: fit, plot, report and calc on real measurements under
# valgrind's memcheck. Fails on any memory error or definite leak in them
# (libtorch's own start-up allocations are "still reachable", not leaks).
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp tests/fixtures/tiny-cpu-peaks.csv "$tmp/peaks.csv"
cp tests/fixtures/tiny-cpu.sweep "$tmp/sweep.sweep"
failed=0
check() {
    if valgrind -q --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        --error-exitcode=99 bin/peakfit "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "clean: peakfit $*"
    else
        failed=1
        echo "NOT CLEAN: peakfit $*"
        sed 's/^/    /' "$tmp/err" | tail -40
    fi
}
check fit "$tmp"
check plot "$tmp"
check report "$tmp"
check calc "$tmp" --budget 2GiB --target-batch 512 --replicas 4 --seq-len 256
check calc "$tmp" --budget 1GiB --micro-batch 4 --accum 8 --json
check report "$tmp" --reference tests/fixtures/reference-smollm2.csv
exit $failed
