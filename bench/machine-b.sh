#!/usr/bin/env bash
# bench/machine-b.sh: the six held-out SmolLM2-135M full/sdpa points of
# bench/smollm2-machines.sweep measured on a second machine (another CPU
# than the one that measured bench/results/smollm2-135m-cpu and its
# held-out points), into OUT (default bench/results/smollm2-135m-cpu-machine-b).
# bench/machines.py sets them against that machine's. Resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
"${PEAKFIT:-bin/peakfit}" run bench/smollm2-machines.sweep -o "${OUT:-bench/results/smollm2-135m-cpu-machine-b}"
