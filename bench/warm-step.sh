#!/usr/bin/env bash
# One warm step against the two-step protocol, in one run: the SmolLM2-135M
# grid (sweeps/smollm2-135m-cpu.sweep, or with SUBSET=1 its full_training
# job at batch 1 and 4 only), every point measured twice, once as shipped
# (warm = 1, steps = 1) and once with warm = 0, steps = 2. Prints each
# protocol's wall time summed over the points, their ratio, and the
# allocator-level peaks (tensor_peak_mib) and
# RSS peaks above baseline of every point side by side; writes
# bench/results/warm-step.txt. A benchmark, not a test: read the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s all
out=${OUT:-bench/results/warm-step.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=sweeps/smollm2-135m-cpu.sweep
if [ "${SUBSET:-0}" = 1 ]; then
    awk '/^\[/ { keep = ($0 == "[global]" || $0 == "[full_training]") } keep' "$src" |
        sed 's/^batch = .*/batch = 1, 4/' >"$tmp/warm.sweep"
else
    cp "$src" "$tmp/warm.sweep"
fi
sed 's/^\[global\]$/[global]\nwarm = 0\nsteps = 2/' "$tmp/warm.sweep" >"$tmp/plain.sweep"
cp "${PEAKFIT:-bin/peakfit}" "${PEAKFIT_WORKER:-bin/peakfit-worker}" build/tests/tools/csvq "$tmp/" # a rebuild meanwhile changes nothing here
csvq=$tmp/csvq
# Point by point, the two protocols in turn (which goes first alternating),
# so that a slow spell of this shared machine lands on both alike instead of
# on whichever sweep ran during it. A point's time is its `run --point`.
seconds() { local t0 t1; t0=$(date +%s.%N); "$tmp/peakfit" run "$1" -o "$2" --point "$3" 2>/dev/null; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'; }
points=$(grep -c . <("$tmp/peakfit" grid "$tmp/warm.sweep" 2>/dev/null))
for ((k = 0; k < points; k++)); do
    for protocol in $([ $((k % 2)) = 0 ] && echo warm plain || echo plain warm); do
        echo "$protocol $(seconds "$tmp/$protocol.sweep" "$tmp/$protocol" "$k")"
    done
done >"$tmp/times"
total() { awk -v p="$1" '$1 == p { s += $2 } END { printf "%.1f", s }' "$tmp/times"; }
warm_s=$(total warm) plain_s=$(total plain)
{
    echo "# bench/warm-step.sh$([ "${SUBSET:-0}" = 1 ] && echo " (SUBSET=1: job full_training at batch 1 and 4 only)"), $(date -u +%Y-%m-%d), $(nproc) cores, $points points, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# wall time over all points, each point run under both protocols in turn: one warm step $warm_s s, two plain steps $plain_s s, ratio $(awk -v a="$warm_s" -v b="$plain_s" 'BEGIN { printf "%.2f", a / b }')"
    printf '%-52s %14s %14s %12s %12s\n' point tensor_warm tensor_plain rss_warm rss_plain
    join -t $'\t' <("$csvq" "$tmp/warm/peaks.csv" point_id tensor_peak_mib peak_above_baseline_mib | sed 's#/st1/#/#' | sort) \
                  <("$csvq" "$tmp/plain/peaks.csv" point_id tensor_peak_mib peak_above_baseline_mib | sed 's#/st2/#/#' | sort) |
        awk -F'\t' '{ printf "%-52s %14s %14s %12s %12s\n", $1, $2, $4, $3, $5 }'
    echo "# MiB above baseline; tensor: the counting allocator's peak, rss: VmHWM"
} | tee "$out"
