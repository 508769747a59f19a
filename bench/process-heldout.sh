#!/usr/bin/env bash
# bench/process-heldout.sh [DIR]: held-out points of a whole-process plan for a
# Python trainer. bench/process-heldout.sweep's points, off every grid the
# plans are fitted from, are measured with the published SmolLM2-135M
# script's protocol (examples/transformers/train_step.py --build config, a
# command job, each point a fresh process) into DIR/peaks.csv (a rerun
# resumes); bench/process-heldout.py writes DIR/heldout.md: calc's plan from
# the committed fits (--process python and worker) beside each measured peak.
#   PEAKFIT=build-torch2/bin/peakfit  the build that plans (and runs the sweep)
#   PYTHON=.venv/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-${OUT:-bench/results/process-heldout}}
PEAKFIT=${PEAKFIT:-build-torch2/bin/peakfit}
PYTHON=${PYTHON:-.venv/bin/python}
mkdir -p "$DIR"
"$PEAKFIT" run bench/process-heldout.sweep -o "$DIR" 2>"$DIR/run.log" || { tail -n 20 "$DIR/run.log" >&2; exit 1; }
PEAKFIT=$PEAKFIT "$PYTHON" bench/process-heldout.py "$DIR/peaks.csv" >"$DIR/heldout.md"
cat "$DIR/heldout.md"
