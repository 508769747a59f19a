#!/usr/bin/env bash
# The plan calibrated by the user's own command (calc --process command,
# reports/calibration.h), checked at points the calibration did not see:
# one sweep measures the tiny llama config by peakfit's worker over a grid
# (b 1-16 x s 64, 128) and by a Python trainer (examples/transformers/
# train_step.py: transformers' from_config, the plain loop of two AdamW
# steps, sdpa, one thread, without the live-tensor count as the published
# protocol) at three small points, and at three larger ones held out
# (`holdout`: measured, kept out of its group's points, so out of the
# calibration). For each held-out point it prints the trainer's whole
# process beside calc's plans at that micro-batch and seq_len: calibrated
# by the trainer's three points, and for a Python trainer from the process
# term (--process python), each with its 95% interval and error.
# usage: bench/calibration.sh knee|floor [RESULTS_DIR]
#   knee         the trainer's three points above the worker fit's knee
#                (b 3, 4, 6 x s 128), as docs/calc.md asks
#   floor        three points at and near its floor (b 1, 2, 4 x s 64),
#                where the optimizer step, not the activations, sets the peak
#   RESULTS_DIR  keep the run there (peaks.csv; a rerun resumes) and write
#                RESULTS_DIR/summary.txt; default: a temporary run, summary
#                in bench/results/calibration-MODE.txt
#   PEAKFIT=bin/peakfit   the peakfit whose worker measures the grid
#   CONFIG=bench/transformers/configs/tiny.json
# Needs the venv (make venv).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
case ${1:-} in
knee) POINTS="batch = 3, 4, 6
seq_len = 128" ;;
floor) POINTS="batch = 1, 2, 4
seq_len = 64" ;;
*) echo "usage: bench/calibration.sh knee|floor [RESULTS_DIR]" >&2; exit 2 ;;
esac
CONFIG=${CONFIG:-$ROOT/bench/transformers/configs/tiny.json}
RESULTS=${2:-}
PEAKFIT=${PEAKFIT:-bin/peakfit}
PYTHON=${PEAKFIT_PYTHON:-$ROOT/.venv/bin/python}
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
RUN=${RESULTS:-$TMPD/run}
SUMMARY=${RESULTS:+$RESULTS/summary.txt}
SUMMARY=${SUMMARY:-${OUT:-bench/results/calibration-$1.txt}}
mkdir -p "$RUN"
cat >"$RUN/calibration.sweep" <<SWEEP
[global]
model = $CONFIG
technique = full
attention = sdpa
warm = 0
steps = 2
threads = 1
timeout = 30m

[builtin]
batch = 1, 2, 4, 8, 16
seq_len = 64, 128

[script]
$POINTS
holdout = 8x128, 16x64, 16x128
command = $PYTHON $ROOT/examples/transformers/train_step.py --config {model} --build config --batch {batch} --seq-len {seq_len} --technique {technique} --attention {attention} --warm {warm} --steps {steps} --seed {seed} --threads {threads} --optimizer {optimizer} --zero-grad {zero_grad}
SWEEP
PEAKFIT_TENSOR_PEAK=0 "$PEAKFIT" run "$RUN/calibration.sweep" -o "$RUN" 2>"$RUN/run.log" || { tail -n 20 "$RUN/run.log"; exit 1; }
{
    echo "# bench/calibration.sh $(date -u +%FT%TZ): $(basename "$(dirname "$CONFIG")")/$(basename "$CONFIG"), one run"
    echo "# PEAKFIT=$(realpath -m --relative-base="$ROOT" "$PEAKFIT") bench/calibration.sh $1 ${2:-}"
    PEAKFIT=$PEAKFIT "$PYTHON" bench/calibration.py "$RUN"
} | tee "$SUMMARY"
