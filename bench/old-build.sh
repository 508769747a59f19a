#!/usr/bin/env bash
# bench/old-build.sh REV DIR TARGET...: builds TARGET (bin/peakfit,
# bin/peakfit-worker) of commit REV, from git history, in DIR: REV's tree
# as git archive gives it, made with -j nproc, its output discarded. The
# entries that set a build of the past beside this one ("git history" in
# bench/entries.tsv) call it; the caller removes DIR.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: bench/old-build.sh REV DIR TARGET..." >&2; exit 2; }
rev=$1 dir=$2
shift 2
cd "$(dirname "$0")/.."
mkdir -p "$dir"
git archive "$rev" | tar -x -C "$dir"
make -s -j"$(nproc)" -C "$dir" "$@" >/dev/null
