#!/usr/bin/env bash
# bench/process-term.sh [DIR]: the process term of a whole-process plan
# (reports/process_term.c), measured in one run. bench/process-term.sweep's
# points are measured by peakfit's worker and by a Python trainer running
# the published SmolLM2-135M script's protocol
# (examples/transformers/train_step.py --build config, without the live-tensor
# count: PEAKFIT_TENSOR_PEAK=0), each in a fresh process, into DIR/peaks.csv
# (a rerun resumes); bench/process-term.py fits the difference per technique
# class into DIR/term.txt.
#   PEAKFIT=build-torch2/bin/peakfit  the build against the venv's torch (2.13)
#   PYTHON=.venv/bin/python            the sweep's command runs .venv/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-${OUT:-bench/results/process-term}}
PEAKFIT=${PEAKFIT:-build-torch2/bin/peakfit}
PYTHON=${PYTHON:-.venv/bin/python}
mkdir -p "$DIR"
"$PEAKFIT" run bench/process-term.sweep -o "$DIR" 2>"$DIR/run.log" || { tail -n 20 "$DIR/run.log" >&2; exit 1; }
"$PEAKFIT" fit "$DIR" >"$DIR/fit.txt" 2>&1
"$PYTHON" bench/process-term.py "$DIR/peaks.csv" >"$DIR/term.txt"
cat "$DIR/term.txt"
