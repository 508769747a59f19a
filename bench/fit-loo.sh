#!/usr/bin/env bash
# Leave-one-out on a large group, before and after the closed form: one
# group of 16,000 rows (inference, tiny, s = 64, batches 1-64 repeated,
# peak = 100 + 0.5 T + noise), `peakfit fit` timed with this build and with
# the build of BEFORE (default ace8011, which refitted once per point).
# Writes bench/results/fit-loo.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${BEFORE:-ace8011}
out=${OUT:-bench/results/fit-loo.txt}
make -s bin/peakfit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench/old-build.sh "$before" "$tmp/old" bin/peakfit
mkdir "$tmp/dir"
fixture=tests/fixtures/tiny-cpu-peaks.csv
head -1 "$fixture" >"$tmp/dir/peaks.csv"
grep -m1 '^inference/' "$fixture" | awk -F, -v OFS=, -v header="$(head -1 "$fixture")" '
    BEGIN { n = split(header, h, ","); for (i = 1; i <= n; i++) col[h[i]] = i; srand(18) }
    { for (r = 0; r < 16000; r++) {
          b = 1 + r % 64
          $col["point_id"] = "inference/tiny/cpu/inference/b" b "/s64/st1/r" int(r / 64)
          $col["batch"] = b; $col["seq_len"] = 64; $col["tokens"] = 64 * b; $col["repeat"] = int(r / 64)
          $col["peak_above_baseline_mib"] = sprintf("%.3f", 100 + 0.5 * 64 * b + 4 * (rand() - 0.5))
          print } }' >>"$tmp/dir/peaks.csv"
time_fit() { local t0 t1; t0=$(date +%s.%N); "$1" fit "$tmp/dir" >"$tmp/fit.out"; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
old_s=$(time_fit "$tmp/old/bin/peakfit")
new_s=$(time_fit bin/peakfit)
{
    echo "peakfit fit on one group of 16000 rows (bench/fit-loo.sh), $(date -u +%Y-%m-%d)"
    echo "before ($before, a refit per point for leave-one-out): ${old_s} s"
    echo "after  (closed form: residual / (1 - leverage)):        ${new_s} s"
    echo "ratio: $(echo "scale=1; $old_s / $new_s" | bc)x"
} | tee "$out"
