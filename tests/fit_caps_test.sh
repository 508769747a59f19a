# No silent caps: a group of 600 points over 40 seq_lens is fitted whole
# (fit used to keep 512 points per group and list 32 seq_lens).
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TMP/big
mkdir -p "$dir"
# The fixture's first row, at batch 1..15 x seq_len 16, 32, ..., 640.
awk -F, -v OFS=, 'NR == 1 { print; next }
    NR == 2 { for (s = 16; s <= 640; s += 16) for (b = 1; b <= 15; b++) {
                  $1 = "full/tiny/cpu/full/b" b "/s" s; $6 = b; $7 = s; $8 = b * s
                  $21 = sprintf("%.3f", 100 + 0.01 * b * s + (n++ % 7) * 0.1); $23 = $21; print } }' \
    "$TESTS/fixtures/tiny-cpu-peaks.csv" >"$dir/peaks.csv"
expect_eq "generated rows" "$(($(wc -l <"$dir/peaks.csv") - 1))" 600
"$PEAKFIT" fit "$dir" >/dev/null 2>"$TMP/err" || fail "fit failed: $(cat "$TMP/err")"
expect_eq "points in the rss fit" "$("$CSVQ" "$dir/fit.csv" metric n | awk '$1 == "rss" { print $2 }')" 600
expect_eq "seq_lens listed" "$("$CSVQ" "$dir/fit.csv" metric seq_lens | awk '$1 == "rss" { print $2 }' | tr ';' '\n' | wc -l)" 40
expect_eq "largest seq_len listed" "$("$CSVQ" "$dir/fit.csv" metric seq_lens | awk '$1 == "rss" { print $2 }' | tr ';' '\n' | tail -n 1)" 640
expect_eq "residual rows" "$("$CSVQ" "$dir/fit-residuals.csv" metric | grep -c '^rss$')" 600
