#!/usr/bin/env bash
# `peakfit auto --slices` at the sequence length users train with, timed,
# for Mistral-7B-v0.1 (from its config alone) and Qwen2.5-0.5B, one after
# the other:
#   bench/slices/fast-auto.sh  ->  bench/results/slices-fast-auto/{mistral-7b,qwen2.5-0.5b}/
# Each runs `peakfit auto MODEL --slices --technique full --seq-len 256
# --threads 2` into its folder's slices/ (auto's output in auto-output.txt,
# its wall time and the load in run.txt), fits it (fit.txt), and plans for
# an 80 GiB GPU at the allocator level (calc-80GiB.txt; calc exits 4 where
# the plan does not fit: that is an answer, not a failure). Timings mean
# something on a quiet machine only: each run waits until the 1-minute
# load average is below WAIT_LOAD (default 1.0), checking every minute for
# at most WAIT_S seconds (default 2400), and run.txt records how long it
# waited and the load at both ends.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
peakfit=${PEAKFIT:-$root/bin/peakfit}
top=${OUT:-$root/bench/results/slices-fast-auto}
wait_load=${WAIT_LOAD:-1.0} wait_s=${WAIT_S:-2400}
cd "$root"
source bench/slices/timed-auto.sh

# one NAME MODEL: auto's slices of MODEL into $top/NAME, timed, fitted and planned.
one() {
    local out=$top/$1 model=$2 waited=0
    mkdir -p "$out"
    while awk -v max="$wait_load" '{ exit !($1 >= max) }' /proc/loadavg && [ "$waited" -lt "$wait_s" ]; do
        sleep 60
        waited=$((waited + 60))
    done
    timed_auto "$peakfit" "$out" "auto: waited $waited s for a 1-minute load below $wait_load; start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" \
        "$model" --slices --technique full --seq-len 256 --threads 2
    "$peakfit" calc "$out/slices" --budget 80GiB --metric tensor --technique full >"$out/calc-80GiB.txt" 2>&1 || true
    cat "$out/run.txt" "$out/calc-80GiB.txt"
}

one mistral-7b tests/fixtures/models/Mistral-7B-v0.1
one qwen2.5-0.5b bench/configs/qwen2.5-0.5b
