#!/usr/bin/env bash
# bench/demo-peaks-identical.sh BEFORE/peaks.csv AFTER/peaks.csv: are the
# allocator-level peaks of two runs of the demo sweep (make demo,
# sweeps/tiny-cpu.sweep) identical to the byte, point by point? Used to
# check that a refactoring of the runner (issue 22: the point record, the
# report table) changed no measurement. Prints each point's tensor and
# per-phase peaks side by side and the count of points that differ; exits 1
# when any does. RSS and times vary from run to run and are not compared.
set -euo pipefail
cd "$(dirname "$0")/.."
csvq=${CSVQ:-build/tests/tools/csvq}
[ $# = 2 ] || { echo "usage: $0 BEFORE/peaks.csv AFTER/peaks.csv" >&2; exit 2; }
columns="tensor_peak_mib forward_peak_mib backward_peak_mib optimizer_peak_mib"
table() { "$csvq" "$1" point_id $columns | sort; }
echo "point_id | before: $columns | after"
join -t $'\t' <(table "$1") <(table "$2") | tr '\t' ' '
n_before=$(table "$1" | wc -l) n_after=$(table "$2" | wc -l)
differ=$(diff <(table "$1") <(table "$2") | grep -c '^>' || true)
echo "points: $n_before before, $n_after after; $differ differ"
[ "$differ" = 0 ] && [ "$n_before" = "$n_after" ]
