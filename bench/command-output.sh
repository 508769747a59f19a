#!/usr/bin/env bash
# How fast a command job's stdout is read (#35 item 7): the same command,
# writing MIB MiB of 17-byte lines, timed on its own (its output through a
# pipe into cat, as fast as a reader can take it) and under peakfit (the
# row's worker_wall_s: fork to reaped), REPEATS times each, interleaved;
# the medians and their ratio. The runner keeps only the output's last
# 4 KiB (proc/command_watch.h), whatever its size.
# usage: bench/command-output.sh [MIB] [REPEATS]   (default 200, 5)
#   writes bench/results/command-output.txt
set -euo pipefail
cd "$(dirname "$0")/.."
MIB=${1:-200}
REPEATS=${2:-5}
PEAKFIT=${PEAKFIT:-bin/peakfit}
CSVQ=${CSVQ:-build/tests/tools/csvq}
OUT=${OUT:-bench/results/command-output.txt}
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
bytes=$((MIB * 1048576))
command="yes 0123456789abcdef 2>/dev/null | head -c $bytes"
printf '[global]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 1\nshell = true\ntimeout = 10m\n' >"$TMPD/s.sweep"
printf '[out]\ncommand = %s\n' "$command" >>"$TMPD/s.sweep"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
alone=() runner=()
for i in $(seq "$REPEATS"); do
    start=$(date +%s.%N)
    sh -c "$command" | cat >/dev/null
    alone+=("$(echo "$(date +%s.%N) - $start" | bc)")
    "$PEAKFIT" run "$TMPD/s.sweep" -o "$TMPD/run$i" 2>/dev/null
    runner+=("$("$CSVQ" "$TMPD/run$i/peaks.csv" worker_wall_s)")
done
a=$(printf '%s\n' "${alone[@]}" | median)
r=$(printf '%s\n' "${runner[@]}" | median)
{
    echo "# bench/command-output.sh $MIB $REPEATS ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
    echo "# command: $command"
    echo "alone_s:  ${alone[*]}"
    echo "peakfit_s: ${runner[*]}"
    printf 'median alone %.3f s, under peakfit %.3f s, ratio %.2f; %.0f MiB/s read by the runner\n' \
        "$a" "$r" "$(echo "$r / $a" | bc -l)" "$(echo "$MIB / $r" | bc -l)"
} | tee "$OUT"
