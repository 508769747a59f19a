# bench/transformers/compare.py on two small tables whose ratios and growth
# per sample are known: per-point ratios, least-squares slopes over the
# batches, the worst cases against the targets, and a hostile point id
# (markdown table markup) kept inside its cell. Standard-library Python.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS/.." && pwd)
command -v python3 >/dev/null || fail "python3 is needed for bench/ scripts"
header=point_id,model,technique,attention,seq_len,batch,status,tensor_peak_mib,peak_above_baseline_mib,error
id() { printf '%s' "j|x*/m/cpu/full/sdpa/b$1/s8/st1/r0"; }
{
    echo "$header"
    echo "\"$(id 1)\",m,full,sdpa,8,1,ok,100,200,"
    echo "\"$(id 2)\",m,full,sdpa,8,2,ok,110,220,"
    echo "\"$(id 4)\",m,full,sdpa,8,4,ok,130,260,"
} >"$TMP/peaks.csv"
{
    echo "$header"
    echo "\"$(id 1)\",m,full,sdpa,8,1,ok,100,200,"
    echo "\"$(id 2)\",m,full,sdpa,8,2,ok,110,210,"
    echo "\"$(id 4)\",m,full,sdpa,8,4,ok,131,250,\"a | b\""
} >"$TMP/transformers.csv"
out=$(python3 "$ROOT/bench/transformers/compare.py" "$TMP/peaks.csv" "$TMP/transformers.csv") ||
    fail "compare.py failed: $out"

row() { grep -F "| $1" <<<"$out" | head -n 1; }
# cells N... LINE: the table line's cells N... (1-based), escaped bars dropped
cells() {
    local line=${*: -1}
    line=${line//\\|/}
    awk -F' [|] ' -v want="${*:1:$#-1}" '{ sub(/^[|] /, ""); sub(/ [|]$/, ""); n = split(want, w, " ");
        for (i = 1; i <= n; i++) printf "%s%s", $w[i], (i < n ? " " : "\n") }' <<<"$line"
}
# A point's row: 1 + 3 cells a measure (allocator, RSS), escaped id: 8 unescaped bars.
b4=$(row 'j\|x\*/m/cpu/full/sdpa/b4/s8/st1/r0 (a \| b)')
[ -n "$b4" ] || fail "the b4 row with its escaped id and error is missing: $out"
expect_eq "cells in the b4 row" "$(sed 's/\\|//g' <<<"$b4" | tr -cd '|' | wc -c)" 8
expect_eq "b4 ratios" "$(cells 4 7 "$b4")" "0.9924 1.0400"
# Slopes over batches 1, 2, 4: peakfit 10 and 20 MiB/sample; transformers 10.36 and 17.14.
growth=$(grep -F '| m, full, sdpa, 8 | 1, 2, 4 |' <<<"$out") || fail "no growth row: $out"
expect_eq "growth" "$(cells 3 4 5 6 7 8 "$growth")" \
    "10.0 10.4 0.9655 20.0 17.1 1.1667"
expect_eq "worst allocator" "$(cells 2 5 "$(grep -F '| allocator |' <<<"$out")")" "0.9924 yes"
expect_eq "worst RSS" "$(cells 2 5 "$(grep -F '| RSS |' <<<"$out")")" "1.0476 yes"
expect_eq "worst allocator growth" "$(cells 2 5 "$(grep -F '| allocator growth per sample |' <<<"$out")")" "0.9655 no"
echo "transformers_compare_test: ok"
