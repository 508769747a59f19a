#!/usr/bin/env bash
# What `peakfit auto --slices` measures, checked against the whole model:
#   bench/slices/auto-proof.sh NAME MODEL TECHNIQUE SEQ_LEN
# runs `peakfit auto MODEL --slices --technique TECHNIQUE --seq-len SEQ_LEN
# --threads 2` into bench/results/slices-NAME/slices (its output in
# auto-output.txt, its wall time in run.txt), then the whole model's points
# of bench/slices/NAME-whole.sweep and the fit of both, as
# bench/slices/proof.sh does (summary.txt: A from the slices against the
# whole model's own, and each whole-model point against its prediction).
# A directory already measured resumes: auto and run skip the points it
# holds. Without NAME-whole.sweep (a model too big to build here) the
# summary gives the fit from slices alone. AUTO_OPTIONS: more of auto's
# options ("--device cuda"). CALC=BUDGET (e.g. 24GiB): also the plan for
# that budget from the slices at the allocator level (a GPU's allocated
# memory): `peakfit calc DIR/slices --budget BUDGET --metric tensor` into
# calc-BUDGET.txt.
set -euo pipefail
name=${1:?usage: bench/slices/auto-proof.sh NAME MODEL TECHNIQUE SEQ_LEN}
model=${2:?MODEL} technique=${3:?TECHNIQUE} seq_len=${4:?SEQ_LEN}
root=$(cd "$(dirname "$0")/../.." && pwd)
peakfit=${PEAKFIT:-$root/bin/peakfit}
out=${OUT:-$root/bench/results/slices-$name}
mkdir -p "$out"
cd "$root"

echo "auto: start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >>"$out/run.txt"
t0=$(date +%s.%N)
# shellcheck disable=SC2086 # AUTO_OPTIONS is a list of options
"$peakfit" auto "$model" --slices --technique "$technique" --seq-len "$seq_len" --threads 2 ${AUTO_OPTIONS:-} \
    -o "$out/slices" >"$out/auto-output.txt" 2>"$out/auto-stderr.txt"
t1=$(date +%s.%N)
echo "auto: end $(date -u +%FT%TZ), $(python3 -c "print(f'{$t1 - $t0:.1f}')") s wall clock, load $(cut -d' ' -f1-3 /proc/loadavg)" \
    >>"$out/run.txt"
if [ -e "bench/slices/$name-whole.sweep" ]; then
    echo "whole: start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/run.txt"
    "$peakfit" run "bench/slices/$name-whole.sweep" -o "$out/whole" >>"$out/run.txt" 2>&1
    echo "whole: end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/run.txt"
fi
# The model's path as the repository holds it, not this checkout's (bench/peaks-tidy.py).
PEAKFIT=$peakfit python3 bench/peaks-tidy.py "$out/slices" $([ ! -d "$out/whole" ] || echo "$out/whole") >/dev/null
SKIP_RUN=1 PEAKFIT=$peakfit bench/slices/proof.sh "$name"
if [ -n "${CALC:-}" ]; then
    # exit status 6: the plan fits but rests on fewer than 3 points above the
    # knee (util/exit_status.h), which its text says: a plan all the same.
    status=0
    "$peakfit" calc "$out/slices" --budget "$CALC" --metric tensor >"$out/calc-$CALC.txt" 2>&1 || status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 6 ] || { cat "$out/calc-$CALC.txt" >&2; exit "$status"; }
fi
