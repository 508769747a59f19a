# lib.sh: helpers for the shell tests. PEAKFIT, PEAKFIT_WORKER and CSVQ come
# from run-tests.sh (by hand: the plain build's).
set -u -o pipefail
: "${PEAKFIT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bin/peakfit}"
: "${PEAKFIT_WORKER:=$(dirname "$PEAKFIT")/peakfit-worker}"
export PEAKFIT_WORKER
: "${CSVQ:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/tests/tools/csvq}"
TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# FAULT_WORKER: the worker built with its test hook (make test-programs):
# PEAKFIT_FAULT=segv, abort, kill, hang or exit makes it fail on purpose.
# The released peakfit-worker has no hook.
FAULT_WORKER=$(dirname "$CSVQ")/peakfit-worker-faults
# The fixtures were measured on this CPU: calc and verify take the machine
# they run on for it, so their plans are the same on any host
# (tests/machines_test.sh sets another).
export PEAKFIT_THIS_CPU="AMD EPYC"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# skip WHY: this test cannot run here, and says why (run-tests.sh counts it
# as skipped, exit 77 as in automake).
skip() { echo "SKIP: $*" >&2; exit 77; }

# expect_eq WHAT ACTUAL EXPECTED
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; }

# expect_gt WHAT A B: A > B, as numbers
expect_gt() { awk -v a="$2" -v b="$3" 'BEGIN { exit !(a + 0 > b + 0) }' || fail "$1: $2 is not > $3"; }

# worker_value KEY REPORT: a key's last value in a worker's report
worker_value() { grep "^$1=" <<<"$2" | tail -n 1 | cut -d= -f2-; }

# expect_calc_error WHAT EXPECTED-MESSAGE ARGS...: peakfit calc ARGS exits 2
# with that first line on stderr.
expect_calc_error() {
    local what=$1 expected=$2 err rc
    shift 2
    err=$("$PEAKFIT" calc "$@" 2>&1 >/dev/null); rc=$?
    expect_eq "$what: exit status" "$rc" 2
    expect_eq "$what: message" "$(head -n 1 <<<"$err")" "$expected"
}

# one_point_global: the [global] section of a sweep of shell = true command
# jobs, one point each (tiny, full, b = 1, s = 1, a timeout of 30 s).
one_point_global() {
    printf '[global]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 1\nshell = true\ntimeout = 30\n'
}

# write_sweep FILE: the sweep text comes on stdin
write_sweep() { cat >"$1"; }

# load_sweep FILE [LINE...]: a one-job sweep measuring technique load on the
# tiny preset with one thread (the quickest real point); each LINE (e.g.
# "repeats = 2") is added to the job.
load_sweep() {
    local file=$1
    shift
    printf '[j]\nmodel = tiny\nthreads = 1\ntechnique = load\n' >"$file"
    printf '%s\n' "$@" >>"$file"
}

# address_space_limit KIB: what `ulimit -v` takes for a test's bound on a
# command's address space: KIB, except in the sanitizer build (make
# test-asan sets PEAKFIT_SANITIZED=1), whose shadow memory alone reserves
# terabytes of address space. Every other build (make test, make
# test-torch2) checks the bound.
address_space_limit() {
    if [ -n "${PEAKFIT_SANITIZED:-}" ]; then echo unlimited; else echo "$1"; fi
}

# resume_peaks: sets base to a peaks.csv of this version, whatever columns
# it writes: tests/bad-csvs/resume.sweep's three points (load and two of
# inference on the tiny preset), run once per test.
resume_peaks() {
    base=$TMP/resume-base/peaks.csv
    [ -f "$base" ] && return
    "$PEAKFIT" run "$TESTS/bad-csvs/resume.sweep" -o "$TMP/resume-base" >/dev/null 2>"$TMP/resume-base.err" ||
        fail "run of tests/bad-csvs/resume.sweep: $(cat "$TMP/resume-base.err")"
}
