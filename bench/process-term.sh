#!/usr/bin/env bash
# bench/process-term.sh term|heldout|trainer [DIR]: a whole-process plan for a Python
# trainer (reports/process_term.c), measured in one run each.
#   term     bench/process-term.sweep's points by peakfit's worker and by a
#            Python trainer running the published SmolLM2-135M script's
#            protocol (examples/transformers/train_step.py --build config,
#            without the live-tensor count: PEAKFIT_TENSOR_PEAK=0), each in a
#            fresh process; bench/process-term.py fits the difference per
#            technique class into DIR/term.txt (DIR default
#            bench/results/process-term);
#   heldout  bench/process-heldout.sweep's points, off every grid the plans
#            are fitted from, by the same trainer; bench/process-heldout.py
#            writes DIR/heldout.md: calc's plan from the committed fits beside
#            each measured peak (DIR default bench/results/process-heldout);
#   trainer  bench/process-trainer.sweep's points by the same trainer with
#            its plain loop and with transformers.Trainer (train_step.py
#            --loop trainer); bench/process-trainer.py writes DIR/trainer.txt:
#            the Trainer's extra against the term (DIR default
#            bench/results/process-trainer).
# Each measures into DIR/peaks.csv and then writes the paths in it that lie
# inside the checkout and its venv relative to the repository
# (bench/peaks-tidy.py). A rerun into the same DIR resumes a run that
# stopped before that; one whose every point is measured is not run again
# (peakfit would refuse its relative paths), only summarised; a new
# measurement needs a fresh DIR.
#   PEAKFIT=build-torch2/bin/peakfit  the build against the venv's torch (2.13)
#   PYTHON=.venv/bin/python            the sweeps' commands run .venv/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-} in
term) summary=term.txt ;;
heldout) summary=heldout.md ;;
trainer) summary=trainer.txt ;;
*) echo "usage: bench/process-term.sh term|heldout|trainer [DIR]" >&2; exit 2 ;;
esac
DIR=${2:-${OUT:-bench/results/process-$1}}
PEAKFIT=${PEAKFIT:-build-torch2/bin/peakfit}
PYTHON=${PYTHON:-.venv/bin/python}
# measured SWEEP: every point of SWEEP is in DIR/peaks.csv.
measured() {
    local id
    [ -f "$DIR/peaks.csv" ] || return 1
    while read -r id; do
        cut -d, -f1 "$DIR/peaks.csv" | grep -qxF "$id" || return 1
    done < <("$PEAKFIT" grid "$1" 2>/dev/null)
}
mkdir -p "$DIR"
measured "bench/process-$1.sweep" ||
    "$PEAKFIT" run "bench/process-$1.sweep" -o "$DIR" 2>"$DIR/run.log" || { tail -n 20 "$DIR/run.log" >&2; exit 1; }
# paths inside the checkout and its venv, relative to the repository
PEAKFIT=$PEAKFIT "$PYTHON" bench/peaks-tidy.py "$DIR" >/dev/null
[ "$1" != term ] || "$PEAKFIT" fit "$DIR" >"$DIR/fit.txt" 2>&1
PEAKFIT=$PEAKFIT "$PYTHON" "bench/process-$1.py" "$DIR/peaks.csv" >"$DIR/$summary"
cat "$DIR/$summary"
