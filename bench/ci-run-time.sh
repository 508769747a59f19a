#!/usr/bin/env bash
# `.ci/run`'s wall time as CI pays it: a fresh clone of HEAD in a scratch
# folder (no build, no ccache; the venvs' installs included), CI=true,
# each step's end line and the total as .ci/run prints them, and the
# load around the run.
#   bench/ci-run-time.sh  ->  bench/results/ci-run-time.md
#
# No result is committed yet. The one run so far, before this script, read
# from .ci/run's printed lines: at commit 398e023, from a fresh clone without
# ccache on an otherwise idle 2-core machine with the venvs already
# installed, 1839 s: the default build 192 s; lane 1: make test ended at
# 758 s, leaks at 780, test-asan at 1703; lane 2: test-torch2 at 1231,
# cuda-build at 1839. 3414 CPU seconds, so both cores busy 93 % of the
# time; every suite passed. With the venvs' installs that CI pays (make venv
# 57 s before the build, make venv-cuda 257 s in lane 2): about 36 minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/bench/results/ci-run-time.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$root" "$tmp/clone"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
rc=0
(cd "$tmp/clone" && CI=true bash .ci/run </dev/null >"$tmp/log" 2>&1) || rc=$?
{
    echo "# .ci/run's wall time: a fresh clone of $(git -C "$root" rev-parse --short HEAD), $(nproc) cores, load $load0 before and $(cut -d' ' -f1-3 /proc/loadavg) after; exit $rc"
    echo
    echo '```'
    grep -E '^(lane [12]: |\.ci/run: )' "$tmp/log"
    echo '```'
} >"$out"
cat "$out"
exit "$rc"
