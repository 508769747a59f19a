#!/usr/bin/env bash
# Off-grid held-out points for SmolLM2-135M, full training, sdpa, against
# the committed fit (bench/results/smollm2-135m-cpu): the 7 points of
# bench/smollm2-heldout.sweep (below, near and above the knee, a long
# sequence, and to 2x the largest measured tokens) are measured (niced;
# LOCK=FILE: under flock FILE) into OUT/measured, then added to a copy of
# the committed peaks.csv as held-out rows (holdout = 1, so not fitted) and
# fitted: the report's held-out tables give each one's prediction, 95%
# prediction interval, error and whether it fell inside, at RSS and at the
# allocator level. MEASURED=DIR reuses measurements already made; OUT=DIR
# writes elsewhere (a dry run: OUT=/tmp/x MEASURED=bench/results/smollm2-135m-cpu-heldout/measured).
# The rows are combined by column name (bench/peaks-combine.py): the grid's
# peaks.csv is older than the measured one and has fewer columns.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/results/smollm2-135m-cpu-heldout}
base=bench/results/smollm2-135m-cpu
pf=${PEAKFIT:-bin/peakfit}
[ "$pf" != bin/peakfit ] || make -s bin/peakfit bin/peakfit-worker
if [ -z "${REFIT:-}" ]; then # REFIT=1: fit OUT/peaks.csv as it is (bench/refit-all.sh)
    mkdir -p "$out"
    measured=${MEASURED:-$out/measured}
    if [ ! -s "$measured/peaks.csv" ]; then
        ${LOCK:+flock "$LOCK"} nice -n 10 "$pf" run bench/smollm2-heldout.sweep -o "$measured"
    fi
    cp "$base/sweep.sweep" "$out/sweep.sweep"
    # The grid's rows as they are (its own held-out points stay held out),
    # then the measured rows marked held out, under the union of both headers.
    bench/peaks-combine.py --keep-holdout "$out/peaks.csv" "$base/peaks.csv" -- "$measured/peaks.csv" >/dev/null
fi
"$pf" fit "$out" >"$out/fit.txt"
"$pf" report "$out" 2>/dev/null
{
    echo "SmolLM2-135M full/sdpa: off-grid held-out points against the committed grid's fit (bench/smollm2-heldout.sh, $(date -u +%Y-%m-%d))"
    echo "metric  point      measured  predicted +- 95% PI   error   inside"
    jq -r '.groups[] | select(.technique == "full" and .attention == "sdpa") | . as $g | .holdout[] |
        [$g.metric, .batch, .seq_len, .measured_mib, .predicted_mib, .predicted_pi95_mib, .error_pct, .inside_interval] | @tsv' \
        "$out/fit.json" | awk -F'\t' '{ printf "%-7s b%-2d s%-5d %9.1f %9.1f +- %6.1f %+7.2f%%  %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
    jq -r '.groups[] | select(.technique == "full" and .attention == "sdpa") | . as $g | [.holdout[] | .error_pct] |
        map(if . < 0 then -. else . end) | [$g.metric, length, (add / length), max] | @tsv' "$out/fit.json" |
        awk -F'\t' '{ printf "%s: %d held-out points, mean |error| %.2f%%, largest %.2f%%\n", $1, $2, $3, $4 }'
    jq -r '.groups[] | select(.technique == "full" and .attention == "sdpa") | [.metric, ([.holdout[] | select(.inside_interval)] | length), (.holdout | length)] | @tsv' \
        "$out/fit.json" | awk -F'\t' '{ printf "%s: %d of %d inside their 95%% prediction intervals\n", $1, $2, $3 }'
} | tee "$out/summary.txt"
