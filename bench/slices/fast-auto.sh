#!/usr/bin/env bash
# `peakfit auto --slices` at the sequence length users train with, timed:
# Mistral-7B-v0.1 from its config alone and Qwen2.5-0.5B-shaped, full
# training at s = 256, two cores (--threads 2), each into a directory of
# its own, then the plan for an 80 GiB GPU at the allocator level from
# Mistral-7B's slices (calc exits 4 where the plan does not fit: that is
# an answer, not a failure).
#   bench/slices/fast-auto.sh  ->  bench/results/slices-fast-auto-mistral-7b/
#                                  bench/results/slices-fast-auto-qwen2.5-0.5b/
# Timings mean something on a quiet machine only: each run waits until the
# 1-minute load average is below WAIT_LOAD (default 1.0), checking every
# minute for at most WAIT_S seconds (default 2400), and records the load
# it started and ended at. Every file written opens with the script, the
# commit, the machine, the date and `uptime`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
peakfit=${PEAKFIT:-$root/bin/peakfit}
wait_load=${WAIT_LOAD:-1.0} wait_s=${WAIT_S:-2400}
cd "$root"

header() {
    echo "# bench/slices/fast-auto.sh, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- ':!bench/results' || echo ' (with changes)')"
    echo "# machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "# date: $(date -u +%FT%TZ); uptime: $(uptime)"
}

quiet() {
    local waited=0
    while awk -v max="$wait_load" '{ exit !($1 >= max) }' /proc/loadavg && [ "$waited" -lt "$wait_s" ]; do
        sleep 60
        waited=$((waited + 60))
    done
    echo "$waited"
}

# run NAME MODEL: auto into bench/results/slices-fast-auto-NAME/slices, timed.
run() {
    local name=$1 model=$2 out=bench/results/slices-fast-auto-$1 waited t0 t1
    mkdir -p "$out"
    waited=$(quiet)
    { header; echo "waited ${waited} s for a 1-minute load below $wait_load"; } >"$out/run.txt"
    t0=$(date +%s.%N)
    { header; "$peakfit" auto "$model" --slices --technique full --seq-len 256 --threads 2 -o "$out/slices"; } \
        >"$out/auto-output.txt" 2>"$out/auto-stderr.txt"
    t1=$(date +%s.%N)
    echo "$name: $(python3 -c "print(f'{$t1 - $t0:.1f}')") s wall clock; at the end: $(uptime)" >>"$out/run.txt"
    { header; "$peakfit" fit "$out/slices"; } >"$out/fit.txt" 2>&1
}

run mistral-7b tests/fixtures/models/Mistral-7B-v0.1
out=bench/results/slices-fast-auto-mistral-7b
{ header; "$peakfit" calc "$out/slices" --budget 80GiB --metric tensor --technique full || true; } \
    >"$out/calc-80GiB.txt" 2>&1
run qwen2.5-0.5b bench/configs/qwen2.5-0.5b
cat bench/results/slices-fast-auto-*/run.txt "$out/calc-80GiB.txt"
