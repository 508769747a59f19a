#!/usr/bin/env bash
# `.ci/run`'s wall time as CI pays it: a fresh clone of HEAD in a scratch
# folder (no build, no ccache; the venvs' installs included), CI=true,
# each step's end line and the total as .ci/run prints them, and the
# load around the run.
#   bench/ci-run-time.sh  ->  bench/results/ci-run-time.md
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
