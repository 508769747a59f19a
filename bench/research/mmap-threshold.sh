#!/usr/bin/env bash
# bench/research/mmap-threshold.sh: peak RSS above baseline of peakfit's worker and of
# train_step.py with glibc's mmap threshold left dynamic or fixed (#19, README 9).
#
#   bench/research/mmap-threshold.sh > OUT
#
# For each point (SmolLM2-135M full sdpa, BATCHxSEQ_LEN) and each threshold, one fresh
# process per side:
#   worker  $WORKER --model C --technique full --batch B --seq-len S --threads 2 --warm 1
#           --steps 1 --seed 0 (as `peakfit run` starts it)
#   python  train_step.py with measure.py's command line (--steps 1 --warm 1 --seed 0
#           --device cpu spelt out), PEAKFIT_TENSOR_PEAK=0 as measure.py's RSS run
#   short   train_step.py with only --config --technique --batch --seq-len --attention
#           --threads (the points in SHORT only: README 9, b4 s512's two outcomes)
# A threshold N is GLIBC_TUNABLES=glibc.malloc.mmap_threshold=N, which also turns off
# glibc's dynamic threshold (malloc.c: mp_.no_dyn_threshold); "dynamic" sets nothing and
# runs under rss_trace.so, whose .thr log gives the dynamic threshold at the baseline
# (its value when RSS first passed the baseline by 16 MiB) and at the RSS peak.
# Columns: point, threshold, side, baseline RSS, RSS peak above baseline (MiB), the
# allocator-level peak above baseline (worker only; MiB), thresholds (KiB; dynamic only).
#
#   WORKER=build-torch2/bin/peakfit-worker  PYTHON=.venv/bin/python
#   POINTS="8x256 4x512 1x256"  THRESHOLDS="dynamic 131072 4194304 33554432"
#   SIDES="worker python short"  SHORT="4x512"  LOCK=FILE (each run under flock FILE)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
WORKER=${WORKER:-build-torch2/bin/peakfit-worker}
PYTHON=${PYTHON:-.venv/bin/python}
POINTS=${POINTS:-8x256 4x512 1x256}
THRESHOLDS=${THRESHOLDS:-dynamic 131072 4194304 33554432}
SIDES=${SIDES:-worker python short}
SHORT=${SHORT:-4x512}
CONFIG=$ROOT/bench/transformers/configs/smollm2-135m.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -shared -fPIC -o "$TMP/rss_trace.so" bench/research/rss_trace.c -lpthread
export HF_HUB_OFFLINE=1

source "$ROOT/bench/transformers/side_lib.sh"

# run_side SIDE B S N: one fresh process; its report in $TMP/report, its trace in $TMP/t.*
run_side() {
    local env=(PEAKFIT_TENSOR_PEAK=0) cmd
    read -r -a cmd <<<"$(side_argv "$1" "$2" "$3")"
    rm -f "$TMP"/t.*
    if [ "$4" = dynamic ]; then
        env+=(RSS_TRACE="$TMP/t" LD_PRELOAD="$TMP/rss_trace.so")
    else
        env+=(GLIBC_TUNABLES=glibc.malloc.mmap_threshold=$4)
    fi
    start_side "$1" "${env[@]}" -- "${cmd[@]}"
}

# thresholds BASELINE_KIB: the dynamic threshold at the baseline and at the RSS peak (KiB)
thresholds() {
    local thr
    thr=$(ls "$TMP"/t.*.thr 2>/dev/null | head -1)
    [ -n "$thr" ] || { echo "- -"; return; }
    awk -v base="$1" '$2 <= base + 16384 { at = $3 } $2 > hi { hi = $2; peak = $3 }
        END { printf "%s %s\n", at, peak }' "$thr"
}

printf '%-6s %-9s %-7s %9s %9s %9s %9s %9s\n' point threshold side base_mib rss_mib alloc_mib thr_base thr_peak
for p in $POINTS; do
    b=${p%x*} s=${p#*x}
    for n in $THRESHOLDS; do
        for side in $SIDES; do
            [ "$side" != short ] || [[ " $SHORT " == *" $p "* ]] || continue
            if ! run_side "$side" "$b" "$s" "$n"; then
                echo "$p $n $side: failed: $(tail -1 "$TMP/err")"
                continue
            fi
            read -r base peak alloc < <(report_figures)
            [ "$n" = dynamic ] && thr=$(thresholds "$base") || thr="- -"
            printf '%-6s %-9s %-7s %9.1f %9.1f %9s %9s %9s\n' "$p" "$n" "$side" "$(echo "$base / 1024" | bc -l)" \
                "$(echo "($peak - $base) / 1024" | bc -l)" "$alloc" $thr
        done
    done
done
