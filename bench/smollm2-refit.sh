#!/usr/bin/env bash
# The committed SmolLM2-135M sweep (bench/results/smollm2-135m-cpu/peaks.csv)
# refitted with the floor-aware fit: A per attention and metric against the
# committed straight-line fit (git show BEFORE:.../fit.csv, default ace8011)
# and the slope of the points above the floor that issue 18 measured
# (1.845 MiB/token, sdpa, allocator level); the held-out points with their
# 95% prediction intervals. Rewrites the directory's fit files and report,
# writes bench/results/smollm2-refit.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${BEFORE:-ace8011}
dir=bench/results/smollm2-135m-cpu
out=${OUT:-bench/results/smollm2-refit.txt}
pf=${PEAKFIT:-bin/peakfit}
[ "$pf" != bin/peakfit ] || make -s bin/peakfit
"$pf" fit "$dir" >"$dir/fit.txt"
"$pf" report "$dir" 2>/dev/null
{
    echo "SmolLM2-135M, full training, cpu: the committed sweep refitted (bench/smollm2-refit.sh, $(date -u +%Y-%m-%d))"
    echo
    echo "A (MiB/token) by attention and metric: before ($before, one straight line) -> after (max(P, line))"
    git show "$before:$dir/fit.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["technique"] == "full" { print $c["attention"], $c["metric"], $c["A_mib_per_token"] }' | sort >"$dir/.before"
    jq -r '.groups[] | select(.technique == "full") | [.attention, .metric,
        (if .model_choice == "quadratic" then .quadratic else .linear end).coefficients[1],
        .floor.found, .floor.p_mib, .floor.n_floor, .floor.n_above_knee] | @tsv' "$dir/fit.json" | sort |
        join -j1 <(awk '{ print $1 "/" $2, $3 }' "$dir/.before") <(awk -F'\t' '{ print $1 "/" $2, $3, $4, $5, $6, $7 }' -) |
        awk '{ printf "  %-16s A %.4f -> %.4f   floor %s P %.1f MiB, %d on the floor, %d above the knee\n", $1, $2, $3, $4, $5, $6, $7 }'
    rm -f "$dir/.before"
    echo
    echo "Issue 18: the sdpa points above the floor lie on 1.845 MiB/token (allocator level); sdpa/tensor above is the fit's A."
    echo
    echo "Held-out points (not fitted): measured, predicted +- 95% prediction interval, error, inside"
    jq -r '.groups[] | select(.technique == "full") | . as $g | .holdout[] |
        [$g.attention, $g.metric, .batch, .seq_len, .measured_mib, .predicted_mib, .predicted_pi95_mib, .error_pct, .inside_interval] | @tsv' \
        "$dir/fit.json" | awk -F'\t' '{ printf "  %-5s %-6s b%-2d s%-4d %8.1f  %8.1f +- %6.1f  %+6.2f%%  %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
} | tee "$out"
