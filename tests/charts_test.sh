# The charts and the report's title on the committed SmolLM2-135M
# measurements (12 groups, 5 techniques with per-phase peaks, held-out
# points): every chart title names the model; legends sit outside the data;
# peak_by_phase has one panel per technique and joins only points of one
# seq_len; held-out points are drawn; each colour is one group's; the
# throughput title says what the steps were; the report's title is the
# model and techniques, and no overhead figure is negative.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
dir=$TMP/smol
mkdir -p "$dir"
cp "$root/bench/results/smollm2-135m-cpu/peaks.csv" "$dir/"
"$PEAKFIT" plot "$dir" 2>"$TMP/err" || fail "plot: $(cat "$TMP/err")"
gp=$dir/plots/peakfit.gp
# Per terminal: 4 single charts with "set title 'smollm2-135m: ...", and the
# multiplot's title.
expect_eq "chart titles naming the model" "$(grep -c "^set title 'smollm2-135m: " "$gp")" 8
expect_eq "peak_by_phase: one panel per technique, titled by the model" \
    "$(grep -c "^set multiplot layout 3,2 title 'smollm2-135m: " "$gp")" 2
for t in full full+ckpt bf16 amp-bf16 lora+ckpt; do
    expect_eq "a panel for $t" "$(grep -cx "set title '$t'" "$gp")" 2
done
grep -n '^set key' "$gp" | grep -v 'outside' | grep -v 'set key inside left top$' && fail "a legend inside the data"
# lines join one seq_len: each blank-line-separated block of phases-*.dat
# holds one seq_len, its tokens ascending.
for f in "$dir"/plots/phases-*.dat; do
    awk 'NF == 0 { s = ""; t = -1; next } /^#/ { next }
         { if (s != "" && $6 != s) { print FILENAME ": seq_len " $6 " in the block of " s; exit 1 }
           if ($1 < t) { print FILENAME ": tokens go down"; exit 1 } s = $6; t = $1 }' "$f" || fail "phases data"
done
expect_gt "seq_len blocks in full sdpa's phases" "$(grep -c '^$' "$dir/plots/phases-2.dat")" 1
# Held-out points: drawn, from a data file holding them.
expect_eq "held-out series" "$(grep -o '"held-[0-9]*.dat"' "$gp" | sort -u | wc -l)" 2
expect_eq "full sdpa's held-out points" "$(grep -vc '^#' "$dir/plots/held-2.dat")" 2
# No two groups of a chart share a colour.
expect_eq "distinct colours on peak_vs_tokens" \
    "$(sed -n '/peak_vs_tokens.png/,/^set output/p' "$gp" | grep -o 'points-[0-9]*.dat" using 1:2 with points lc rgb .#[0-9A-F]*' | awk '{print $NF}' | sort -u | wc -l)" 12
grep -q "^set title 'smollm2-135m: throughput (each point ran one step: that step''s time)'" "$gp" ||
    fail "throughput title: $(grep 'throughput' "$gp" | head -2)"
grep -q 'points with the same b x s share a position' "$gp" || fail "the token axis does not say it merges (b, s)"
"$PEAKFIT" report "$dir" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
expect_eq "report title" "$(head -n 1 "$dir/report.md")" \
    "# smollm2-135m: inference, full, full+ckpt, bf16, amp-bf16, lora+ckpt"
sed -n '/^## Fixed cost F/,/^## /p' "$dir/report.md" | awk -F'|' 'NF > 10 && $11 ~ /^ *-[0-9]/ { bad = bad $0 "\n" } END { if (bad) { printf "%s", bad; exit 1 } }' ||
    fail "a negative overhead in the report"
