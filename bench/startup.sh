#!/usr/bin/env bash
# Where a worker's time goes on the demo sweep (sweeps/tiny-cpu.sweep), in
# one run, before and after the start-up cut (a worker the runner started
# exits right after its last report line instead of freeing the model and
# running libtorch's static destructors; PEAKFIT_WORKER_EXIT=clean keeps the
# old teardown): summed over the workers, the share of their wall time in
# fork+exec+dynamic loading (start_s), pf_init (init_s: allocator, thread
# pools, warm-up matmul), building the model, the steps, and the rest
# (baseline, reporting, teardown, exit). Writes bench/results/startup.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s all
out=${OUT:-bench/results/startup.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "${PEAKFIT:-bin/peakfit}" "${PEAKFIT_WORKER:-bin/peakfit-worker}" build/tests/tools/csvq "$tmp/"
PEAKFIT_WORKER_EXIT=clean "$tmp/peakfit" run sweeps/tiny-cpu.sweep -o "$tmp/before" 2>/dev/null
"$tmp/peakfit" run sweeps/tiny-cpu.sweep -o "$tmp/after" 2>/dev/null
shares() {
    "$tmp/csvq" "$1/peaks.csv" worker_wall_s start_s init_s build_s step1_s step_mean_s steps | awk -F'\t' -v name="$2" '
        { wall += $1; start += $2; init += $3; build += $4; steps += $5 + ($7 > 1 ? ($7 - 1) * $6 : 0); n++ }
        END {
            rest = wall - start - init - build - steps
            printf "%-7s %3d workers %7.1f s | start %5.1f%% init %5.1f%% build %5.1f%% steps %5.1f%% rest %5.1f%% | overhead (start+init+rest) %5.1f%%, %.2f s a worker\n",
                name, n, wall, 100 * start / wall, 100 * init / wall, 100 * build / wall, 100 * steps / wall,
                100 * rest / wall, 100 * (start + init + rest) / wall, (start + init + rest) / n
        }'
}
# What no worker can avoid: exec of peakfit-worker, the dynamic loading of
# libtorch and its static initialisers (operator registration), and exit;
# and a peakfit command that loads no libtorch, for scale.
mean_seconds() {
    local t0 t1 n=5
    t0=$(date +%s.%N)
    for _ in $(seq $n); do "$@" >/dev/null 2>&1; done
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v n=$n 'BEGIN { printf "%.3f", (b - a) / n }'
}
load_s=$(mean_seconds "$tmp/peakfit-worker" --facts)
front_s=$(mean_seconds "$tmp/peakfit" grid sweeps/tiny-cpu.sweep)
{
    echo "# bench/startup.sh: sweeps/tiny-cpu.sweep, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# shares of the workers' summed wall time (worker_wall_s, seen by the runner)"
    shares "$tmp/before" before
    shares "$tmp/after" after
    echo "# floor: peakfit-worker --facts (exec, libtorch loaded and initialised, exit) ${load_s} s;" \
         "peakfit grid (no libtorch) ${front_s} s; means of 5"
} | tee "$out"
