#!/usr/bin/env bash
# The demo sweep (sweeps/tiny-cpu.sweep) run with -j 2 against -j 1, in one
# run on this machine: both sweeps' wall times, their ratio, and whether
# the allocator-level peaks agree point by point. Writes
# bench/results/parallel.txt. A benchmark, not a test: read the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s all
out=${OUT:-bench/results/parallel.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "${PEAKFIT:-bin/peakfit}" "${PEAKFIT_WORKER:-bin/peakfit-worker}" build/tests/tools/csvq "$tmp/" # a rebuild meanwhile changes nothing here
seconds() { local t0 t1; t0=$(date +%s.%N); "$tmp/peakfit" run sweeps/tiny-cpu.sweep -o "$1" -j "$2" 2>/dev/null; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }'; }
one=$(seconds "$tmp/one" 1)
two=$(seconds "$tmp/two" 2)
peaks() { "$tmp/csvq" "$1/peaks.csv" point_id tensor_peak_mib | sort; }
{
    echo "# bench/parallel.sh: sweeps/tiny-cpu.sweep, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# -j 1: $one s; -j 2: $two s; ratio -j 2 / -j 1: $(awk -v a="$two" -v b="$one" 'BEGIN { printf "%.2f", a / b }')"
    echo "# points: $(peaks "$tmp/one" | wc -l); allocator peaks identical: $([ "$(peaks "$tmp/one")" = "$(peaks "$tmp/two")" ] && echo yes || echo no)"
    echo "# worker threads: -j 1 $("$tmp/csvq" "$tmp/one/peaks.csv" threads | sort -u | tr '\n' ' '); -j 2 $("$tmp/csvq" "$tmp/two/peaks.csv" threads | sort -u | tr '\n' ' ')"
} | tee "$out"
