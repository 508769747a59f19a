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
# A technique measured at one point has no line panel (one point on an
# axis of 2025 to 2070 says nothing): its phases are bars in one panel.
expect_eq "peak_by_phase: full's panel and the bars, titled by the model" \
    "$(grep -c "^set multiplot layout 2,1 title 'smollm2-135m: " "$gp")" 2
expect_eq "a panel for full" "$(grep -cx "set title 'full'" "$gp")" 2
for t in full+ckpt bf16 amp-bf16 lora+ckpt; do
    expect_eq "no line panel for $t" "$(grep -cx "set title '$t'" "$gp")" 0
    expect_eq "$t's bars (sdpa, eager)" "$(grep -c "^\"$t\\\\n" "$dir/plots/phase-bars.dat")" 2
done
grep -n '^set key' "$gp" | grep -v -e 'outside' -e 'below' | grep -v 'set key inside left top$' &&
    fail "a legend inside the data"
# A label names only the keys that vary, each with its value: no
# "lora_rank  lora_targets  warm 1".
grep -E "title '[^']*(lora_rank|lora_targets|warm|measured_by)( |'|$)( |'|$)" "$gp" && fail "an empty key in a label"
grep -E "title '[^']*warm" "$gp" && fail "warm in a label: it varies only with the technique"
# Each chart's PNG as large as its canvas: the legend below keeps the plot
# the whole width.
png_size() { od -An -j16 -N8 -tu1 "$1" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }'; }
for c in peak_vs_tokens residuals throughput breakdown peak_by_phase; do
    canvas=$(grep -B1 "^set output \"$c.png\"" "$gp" | head -n 1 | sed 's/.* size \([0-9]*\),\([0-9]*\) .*/\1x\2/')
    expect_eq "$c.png's size is its canvas's" "$(png_size "$dir/plots/$c.png")" "$canvas"
done
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
# One colour per technique, in every chart: six techniques, six colours
# on peak_vs_tokens, and full's (groups 2, 3) the same in each chart.
expect_eq "one colour per technique on peak_vs_tokens" \
    "$(sed -n '/peak_vs_tokens.png/,/^set output/p' "$gp" | grep -o 'points-[0-9]*.dat" using 1:2 with points lc rgb .#[0-9A-F]*' | awk '{print $NF}' | sort -u | wc -l)" 6
expect_eq "full's colour everywhere" \
    "$(grep -o -e '"points-[23].dat"[^,]*' -e '"residuals-[23].dat"[^,]*' -e '"phases-[23].dat"[^,]*' "$gp" | grep -o "#[0-9A-F]*" | sort -u)" "#E69F00"
grep -q "^set title 'smollm2-135m: throughput (each point ran one step: that step''s time)'" "$gp" ||
    fail "throughput title: $(grep 'throughput' "$gp" | head -2)"
grep -q 'points with the same b x s share a position' "$gp" || fail "the token axis does not say it merges (b, s)"
"$PEAKFIT" report "$dir" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
expect_eq "report title" "$(head -n 1 "$dir/report.md")" "# smollm2-135m on CPU AMD EPYC, libtorch 1.13.0"
sed -n '/^## Fixed cost F/,/^## /p' "$dir/report.md" | awk -F'|' 'NF > 10 && $11 ~ /^ *-[0-9]/ { bad = bad $0 "\n" } END { if (bad) { printf "%s", bad; exit 1 } }' ||
    fail "a negative overhead in the report"
# A technique measured at one batch has no line: said as it is (one point
# above the knee, which batches to add), and listed under Poor fits. The
# committed points are one warm step each (warm 1, not the default).
grep -qF -- "- **smollm2-135m / cpu / full+ckpt / sdpa / warm 1** (rss): 1 point above the knee (0 on the floor): a line needs two distinct token counts above the knee; add batch 1, 2 at seq_len 256" \
    "$dir/report.md" || fail "no poor-fit line for full+ckpt: $(grep -m1 'full+ckpt / sdpa / warm 1\*\* (rss)' "$dir/report.md")"
grep -qF -- "- **smollm2-135m / cpu / full+ckpt / sdpa / warm 1**: fewer than two distinct token counts: no line can be fitted" \
    "$dir/report.md" || fail "full+ckpt's reason: $(grep -m1 'full+ckpt / sdpa / warm 1\*\*:' "$dir/report.md")"
true
