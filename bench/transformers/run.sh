#!/usr/bin/env bash
# bench/transformers/run.sh [RESULTS_DIR]: peakfit beside transformers, point by point.
#
# For each point K of bench/transformers/side-by-side.sweep, in order:
#   1. `peakfit run --point K`: the built-in worker, a fresh process (DIR/peaks.csv);
#   2. bench/transformers/measure.py: the same point under transformers with
#      examples/transformers/train_step.py, a fresh process (DIR/transformers.csv);
# then bench/transformers/compare.py writes DIR/side-by-side.md. The two sides of
# a point run one after the other, so a slow spell of a shared machine lands on
# both; memory figures do not depend on it. Rerunning resumes: measured points
# are kept. Memory: the largest point (SmolLM2 full b8 s256) needs about 7 GiB.
#
#   PEAKFIT=bin/peakfit      the peakfit to measure with (built against the same
#                            PyTorch as PYTHON's for a like-for-like RSS)
#   PYTHON=.venv/bin/python  transformers' side (torch, transformers, peft)
#   SWEEP=...                another sweep with the same shape of points
#   POINTS="0 1 2"           only these points (0-based, grid order, as run --point)
#   MEASURE_ARGS="-- --build config"  more measure.py arguments, after each --point
#                            (after "--": train_step.py's, for every point)
#   LOCK=FILE                each side of each point runs under flock FILE (a shared
#                            machine's lock for runs that need several GiB)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
RESULTS=${1:-bench/results/transformers-2.13}
PEAKFIT=${PEAKFIT:-bin/peakfit}
PYTHON=${PYTHON:-.venv/bin/python}
SWEEP=${SWEEP:-bench/transformers/side-by-side.sweep}
export HF_HUB_OFFLINE=1
mkdir -p "$RESULTS"

# locked CMD...: CMD under flock $LOCK when LOCK is set
source "$ROOT/bench/transformers/side_lib.sh"

mapfile -t ids < <("$PEAKFIT" grid "$SWEEP" 2>/dev/null)
for k in ${POINTS:-$(seq 0 $((${#ids[@]} - 1)))}; do
    locked "$PEAKFIT" run "$SWEEP" -o "$RESULTS" --point "$k" >>"$RESULTS/run.log" 2>&1 || true
    locked "$PYTHON" bench/transformers/measure.py "$RESULTS/peaks.csv" "$RESULTS/transformers.csv" \
        --point "${ids[$k]}" ${MEASURE_ARGS:-} | tee -a "$RESULTS/run.log"
done
{
    echo "# peakfit beside transformers: $(basename "$SWEEP")"
    echo
    echo "Made by \`SWEEP=$SWEEP ${POINTS:+POINTS=\"$POINTS\" }${MEASURE_ARGS:+MEASURE_ARGS=\"$MEASURE_ARGS\" }PEAKFIT=$PEAKFIT PYTHON=$PYTHON bench/transformers/run.sh $RESULTS\` on $(date -u +%Y-%m-%d)."
    echo "peakfit's torch: $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "torch_version") c = i; next }
        c && $c != "" { print $c; exit }' "$RESULTS/peaks.csv");" \
        "transformers' side: $("$PYTHON" -c 'import torch, transformers, peft; print("torch", torch.__version__,
        "transformers", transformers.__version__, "peft", peft.__version__)')."
    echo
    "$PYTHON" bench/transformers/compare.py "$RESULTS/peaks.csv" "$RESULTS/transformers.csv"
} >"$RESULTS/side-by-side.md"
echo "run.sh: $RESULTS/side-by-side.md"
