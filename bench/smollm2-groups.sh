#!/usr/bin/env bash
# bench/smollm2-groups.sh [DIR]: the committed SmolLM2-135M reproduction's
# full+ckpt and LoRA (r8 on q, v) groups (bench/smollm2-groups.sweep, the
# protocol of sweeps/smollm2-135m-cpu.sweep), measured in one run into
# DIR/peaks.csv, its paths inside the checkout and its venv then written
# relative to the repository (bench/peaks-tidy.py; a new run after that
# needs a fresh DIR), fitted (DIR/fit.txt) and reported (DIR/report.md).
#   PEAKFIT=build-torch2/bin/peakfit  the build against the venv's torch (2.13)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-${OUT:-bench/results/smollm2-135m-cpu-2.13-groups}}
PEAKFIT=${PEAKFIT:-build-torch2/bin/peakfit}
mkdir -p "$DIR"
"$PEAKFIT" run bench/smollm2-groups.sweep -o "$DIR" 2>"$DIR/run.log" || { tail -n 20 "$DIR/run.log" >&2; exit 1; }
# paths inside the checkout and its venv, relative to the repository
PEAKFIT=$PEAKFIT .venv/bin/python bench/peaks-tidy.py "$DIR" >/dev/null
"$PEAKFIT" fit "$DIR" >"$DIR/fit.txt"
"$PEAKFIT" report "$DIR" >/dev/null
cat "$DIR/fit.txt"
