#!/usr/bin/env bash
# run-tests.sh [TEST...]: runs the tests (every one when none is named: the
# C programs built as build/tests/*_test and the shell scripts
# tests/*_test.sh). Each exits non-zero with a message saying what
# differed, or with 77 and a reason when it cannot run here. Prints a line
# per test as it ends and "N passed, N failed, N skipped" last.
#   T=REGEX: only the tests whose name (calc_test, docs_test) matches, as
#     grep -E reads it: T=calc, T='^fit_test$', T='calc|fit'.
#   J=N: N tests at once; without it, make's -jN (make -j: one per core),
#     else one at a time.
set -u
cd "$(dirname "$0")/.."
# PEAKFIT_BUILD: the make B= whose tests run (build-asan: make test-asan,
# build-torch2: make test-torch2); PEAKFIT_BIN: its BIN=, by default bin for
# build and $PEAKFIT_BUILD/bin for any other.
build=${PEAKFIT_BUILD:-build}
bin=${PEAKFIT_BIN:-$([ "$build" = build ] && echo bin || echo "$build/bin")}
export PEAKFIT=$PWD/$bin/peakfit PEAKFIT_WORKER=$PWD/$bin/peakfit-worker CSVQ=$PWD/$build/tests/tools/csvq

# jobs: J, else the -j of the make that runs this (MAKEFLAGS holds " -j4"
# or, for make -j, a bare " -j"), else 1.
jobs() {
    local j
    if [ -n "${J:-}" ]; then echo "$J"; return; fi
    j=$(printf ' %s\n' "${MAKEFLAGS:-}" | grep -oE -- ' -j[0-9]*( |$)' | head -n 1 | tr -d ' ')
    case $j in -j) nproc ;; -j*) echo "${j#-j}" ;; *) echo 1 ;; esac
}

# selected: the tests to run, one path a line.
selected() {
    local t name
    if [ $# -eq 0 ]; then set -- "$build"/tests/*_test tests/*_test.sh; fi
    for t in "$@"; do
        [ -e "$t" ] || continue
        name=$(basename "${t%.sh}")
        if [ -n "${T:-}" ] && ! grep -qE -- "$T" <<<"$name"; then continue; fi
        echo "$t"
    done
}

# run_one TEST DIR: runs TEST with its output in DIR/NAME.out, then writes
# "STATUS SECONDS" to DIR/NAME.rc.
run_one() {
    local t=$1 dir=$2 name start rc
    name=$(basename "$t")
    start=$(date +%s)
    if [ "${t##*.}" = sh ]; then bash "$t" >"$dir/$name.out" 2>&1; else "$t" >"$dir/$name.out" 2>&1; fi
    rc=$?
    echo "$rc $(( $(date +%s) - start ))" >"$dir/$name.rc"
}

# report TEST DIR: the test's line (and a failure's last 40 lines of output).
report() {
    local name rc secs
    name=$(basename "$1")
    read -r rc secs <"$2/$name.rc"
    if [ "$rc" -eq 0 ]; then
        echo "PASS $name (${secs}s)"
    elif [ "$rc" -eq 77 ]; then
        echo "SKIP $name: $(sed -n 's/^SKIP: //p' "$2/$name.out" | tail -1)"
    else
        echo "FAIL $name (${secs}s)"
        sed 's/^/    /' "$2/$name.out" | tail -40
    fi
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
max=$(jobs)
[[ $max =~ ^[1-9][0-9]*$ ]] || { echo "run-tests.sh: J=$max: expected a number of tests at once, 1 or more" >&2; exit 2; }
mapfile -t tests < <(selected "$@")
[ ${#tests[@]} -gt 0 ] || { echo "run-tests.sh: no test matches T=${T:-}" >&2; exit 2; }
# Each test's line is printed as it ends (in the order they end when
# several run at once).
declare -A running=()
for t in "${tests[@]}"; do
    while [ ${#running[@]} -ge "$max" ]; do
        wait -n
        for r in "${!running[@]}"; do
            [ -e "$out/$(basename "${running[$r]}").rc" ] || continue
            report "${running[$r]}" "$out"
            unset "running[$r]"
        done
    done
    run_one "$t" "$out" &
    running[$!]=$t
done
wait
for r in "${!running[@]}"; do report "${running[$r]}" "$out"; done

passed=0 failed=0 skipped=0 failures=()
for t in "${tests[@]}"; do
    name=$(basename "$t")
    read -r rc _ <"$out/$name.rc"
    case $rc in
    0) passed=$((passed + 1)) ;;
    77) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)); failures+=("$name") ;;
    esac
done
[ $failed -eq 0 ] || echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
