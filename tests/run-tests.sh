#!/usr/bin/env bash
# Runs every test: the C programs built as build/tests/*_test and the shell
# scripts tests/*_test.sh. Each exits non-zero with a message saying what
# differed, or with 77 and a reason when it cannot run here. Prints
# "N passed, N failed, N skipped" last.
set -u
cd "$(dirname "$0")/.."
passed=0
failed=0
skipped=0
failures=()
# PEAKFIT_BUILD: the make B= whose tests run (build-asan: make test-asan,
# build-torch2: make test-torch2); PEAKFIT_BIN: its BIN=, by default bin for
# build and $PEAKFIT_BUILD/bin for any other.
build=${PEAKFIT_BUILD:-build}
bin=${PEAKFIT_BIN:-$([ "$build" = build ] && echo bin || echo "$build/bin")}
export PEAKFIT=$PWD/$bin/peakfit PEAKFIT_WORKER=$PWD/$bin/peakfit-worker CSVQ=$PWD/$build/tests/tools/csvq
for t in "$build"/tests/*_test tests/*_test.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t")
    start=$(date +%s)
    if [ "${t##*.}" = sh ]; then out=$(bash "$t" 2>&1); else out=$("$t" 2>&1); fi
    rc=$?
    secs=$(( $(date +%s) - start ))
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        echo "PASS $name (${secs}s)"
    elif [ $rc -eq 77 ]; then
        skipped=$((skipped + 1))
        echo "SKIP $name: $(printf '%s\n' "$out" | sed -n 's/^SKIP: //p' | tail -1)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "FAIL $name (${secs}s)"
        printf '%s\n' "$out" | sed 's/^/    /' | tail -40
    fi
done
[ $failed -eq 0 ] || echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
