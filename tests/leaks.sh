#!/usr/bin/env bash
# make leaks: fit, plot, report and calc, on real measurements and on their
# error paths, under AddressSanitizer with LeakSanitizer: no memory error,
# no leak, and the expected exit status. (It replaces valgrind, which
# stops with SIGILL here: valgrind 3.19 does not know the RDTSCP that
# libhwy, loaded by libtorch's dependencies, runs before main.) Builds the
# C side with sanitizers into build-asan/ (as make test-asan does) first.
set -u -o pipefail
cd "$(dirname "$0")/.."
make -s B=build-asan BIN=build-asan/bin CFLAGS="-O1 -g" \
    SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    build-asan/bin/peakfit || exit 1
peakfit=$PWD/build-asan/bin/peakfit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp tests/fixtures/tiny-cpu-peaks.csv "$tmp/peaks.csv"
cp tests/fixtures/tiny-cpu.sweep "$tmp/sweep.sweep"
mkdir -p "$tmp/models" "$tmp/none"
cp tests/fixtures/two-models-peaks.csv "$tmp/models/peaks.csv"
head -n 1 tests/fixtures/tiny-cpu-peaks.csv >"$tmp/none/peaks.csv"
failed=0

# check STATUS ARGS...: peakfit ARGS exits with STATUS, and the sanitizers
# report nothing.
check() {
    local want=$1 rc
    shift
    ASAN_OPTIONS=detect_leaks=1:exitcode=99:verify_asan_link_order=0 UBSAN_OPTIONS=print_stacktrace=1 \
        "$peakfit" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq "$want" ] && ! grep -q "Sanitizer\|runtime error" "$tmp/err"; then
        echo "clean: peakfit $*"
    else
        failed=1
        echo "NOT CLEAN (exit $rc, expected $want): peakfit $*"
        sed 's/^/    /' "$tmp/err" | tail -40
    fi
}
check 0 fit "$tmp"
check 0 plot "$tmp"
check 0 report "$tmp"
check 0 report "$tmp" --reference tests/fixtures/reference-smollm2.csv
check 0 calc "$tmp" --budget 2GiB --target-batch 512 --replicas 4 --seq-len 256
check 0 calc "$tmp" --budget 1GiB --micro-batch 4 --accum 8 --json
check 0 calc "$tmp" --budget 1GiB --technique inference --json
check 0 calc "$tmp/fit.json" --budget 2GiB --replicas 4 --zero 3 --json
check 0 calc --per-sample 0.5GB --micro-batch 4 --accum 8 --replicas 4 --json
check 4 calc --per-sample 1GiB --fixed 10GiB --budget 24GiB --micro-batch 15
check 2 calc "$tmp" --budget 2GiB --fixed 1GiB
check 0 fit "$tmp/models"
check 0 plot "$tmp/models"
check 0 report "$tmp/models"
check 2 calc "$tmp/models" --budget 2GiB
check 2 calc "$tmp" --budget 2048
check 2 calc "$tmp" --budget 2GiB --accum 3
check 2 report "$tmp" --reference "$tmp/missing.csv"
check 2 report "$tmp" --reference "$tmp/peaks.csv"
check 2 fit "$tmp/none"
check 2 plot "$tmp/none"
check 2 fit "$tmp/missing"
exit $failed
