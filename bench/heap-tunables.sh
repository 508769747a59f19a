#!/usr/bin/env bash
# How far the two glibc heaps of `make test-heaps` move RSS: tiny's full
# training at b 2, 8 and 16 (s = 128, one thread) measured under the
# default heap and under each tunable, in one run, and each point's peak
# RSS above the baseline and its allocator level as ratios to the default
# heap's. The allocator level (libtorch's own count) does not move; RSS,
# which the measuring tests' expectations are derived from, does.
#   bench/heap-tunables.sh  ->  bench/results/heap-tunables.txt
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peakfit=${PEAKFIT:-$root/bin/peakfit}
out=${OUT:-$root/bench/results/heap-tunables.txt}
csvq=$root/build/tests/tools/csvq
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 2, 8, 16\nseq_len = 128\nthreads = 1\n' >"$tmp/h.sweep"
heaps=("" "glibc.malloc.tcache_count=0" "glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072")
for i in "${!heaps[@]}"; do
    GLIBC_TUNABLES=${heaps[$i]} "$peakfit" run "$tmp/h.sweep" -o "$tmp/h$i" >/dev/null 2>&1
done
{
    echo "tiny, full, s = 128: peak RSS above the baseline and the allocator's peak (MiB), and each as a ratio to the default heap's"
    printf '%-72s %5s %9s %9s %7s %7s\n' heap batch rss tensor rss/def ten/def
    for i in "${!heaps[@]}"; do
        paste <("$csvq" "$tmp/h0/peaks.csv" batch peak_above_baseline_mib tensor_peak_mib) \
              <("$csvq" "$tmp/h$i/peaks.csv" peak_above_baseline_mib tensor_peak_mib) |
            awk -F'\t' -v h="${heaps[$i]:-default}" \
                '{ printf "%-72s %5d %9.1f %9.1f %7.3f %7.3f\n", h, $1, $4, $5, $4 / $2, $5 / $3 }'
    done
} >"$out"
cat "$out"
