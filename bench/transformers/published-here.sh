#!/usr/bin/env bash
# bench/transformers/published-here.sh [DIR]: the published SmolLM2-135M script's
# protocol under transformers on this machine, beside the published table and
# peakfit's reproduction of it, measured in one run.
#
# The points of sweeps/smollm2-135m-cpu.sweep (bench/reproduce-smollm2.sh's: two
# plain steps, zero_grad zeros) that a published training row names, with sdpa,
# go through bench/transformers/run.sh: each one by peakfit's worker and by
# examples/transformers/train_step.py with --build config (`from_config`, as the
# published script builds the model), each a fresh process (DIR/peaks.csv,
# DIR/transformers.csv, DIR/side-by-side.md). Then
# bench/transformers/published_here.py writes DIR/published-here.md: the
# published peak, transformers' here and peakfit's, and their ratios. A rerun
# resumes: measured points are kept.
#
#   PEAKFIT=build-torch2/bin/peakfit  the build to measure with (the torch-2.13 one)
#   PYTHON=.venv/bin/python  transformers' side (torch, transformers, peft)
#   REFERENCE=bench/reference/smollm2-135m-cpu.csv
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
DIR=${1:-bench/results/smollm2-published-here}
PEAKFIT=${PEAKFIT:-build-torch2/bin/peakfit}
PYTHON=${PYTHON:-.venv/bin/python}
REFERENCE=${REFERENCE:-bench/reference/smollm2-135m-cpu.csv}
SWEEP=sweeps/smollm2-135m-cpu.sweep

POINTS=$("$PEAKFIT" grid "$SWEEP" 2>/dev/null |
    "$PYTHON" bench/transformers/published_here.py --indices "$REFERENCE" | tr '\n' ' ')
SWEEP=$SWEEP POINTS=${POINTS% } MEASURE_ARGS="-- --build config" PEAKFIT=$PEAKFIT \
    PYTHON=$PYTHON bench/transformers/run.sh "$DIR"
{
    echo "# The published SmolLM2-135M table beside its script and peakfit, here"
    echo
    echo "Made by \`bench/transformers/published-here.sh $DIR\` on $(date -u +%Y-%m-%d)" \
         "(points: \`side-by-side.md\`). RSS above the baseline, MB; each ratio" \
         "to the published figure, and peakfit's to transformers'."
    echo
    "$PYTHON" bench/transformers/published_here.py "$REFERENCE" "$DIR/peaks.csv" "$DIR/transformers.csv"
} >"$DIR/published-here.md"
echo "published-here.sh: $DIR/published-here.md"
