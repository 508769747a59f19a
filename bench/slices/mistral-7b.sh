#!/usr/bin/env bash
# Mistral-7B-v0.1 from its config alone (its fp32 weights, 27 GiB, fit no
# 24 GiB machine): `peakfit auto --slices` for full training and LoRA at
# seq_len 128, one warm step per point (the allocator level of a plain
# loop, what a plan for a GPU's allocated memory needs; docs/measurement.md),
# timed; then the plan for an 80 GiB GPU at the allocator level: full
# training does not fit, and calc says what would.
#   bench/slices/mistral-7b.sh  ->  bench/results/slices-mistral-7b/
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
peakfit=${PEAKFIT:-$root/bin/peakfit}
out=${OUT:-bench/results/slices-mistral-7b}
cd "$root"
source bench/slices/timed-auto.sh
mkdir -p "$out"
timed_auto "$peakfit" "$out" "auto: start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" tests/fixtures/models/Mistral-7B-v0.1 --slices --technique full,lora --seq-len 128 \
    --warm 1 --threads 2
# calc exits 4 where the plan does not fit: that is the answer, not a failure.
"$peakfit" calc "$out/slices" --budget 80GiB --metric tensor --technique full >"$out/calc-80GiB.txt" 2>&1 || true
"$peakfit" calc "$out/slices" --budget 80GiB --metric tensor --technique lora >>"$out/calc-80GiB.txt" 2>&1 || true
cat "$out/run.txt" "$out/calc-80GiB.txt"
