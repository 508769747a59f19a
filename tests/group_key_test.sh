# The group key splits what changes a point's memory (settings/group_key.h's
# GROUP_KEY_SETTINGS: lora_rank, lora_targets, warm): two LoRA ranks in one
# directory are two fits (before, the three rank-16 rows below joined rank
# 8's group: one fit of six points). fit's text, fit.csv and fit.json name them.
source "$(dirname "$0")/lib.sh"
dir=$TMP/k
mkdir -p "$dir"
fixture=$TESTS/fixtures/tiny-cpu-peaks.csv
cp "$fixture" "$dir/peaks.csv"
# the same rows as rank 16
grep '^techniques/tiny/cpu/lora/lora8-q+v/' "$fixture" |
    sed 's|lora8-q+v|lora16-q+v|; s|,8,"q,v",|,16,"q,v",|' >>"$dir/peaks.csv"
"$PEAKFIT" fit "$dir" >"$TMP/fit.out" 2>"$TMP/fit.err" || fail "fit: $(cat "$TMP/fit.err")"
expect_eq "lora groups (rss): rank and n" \
    "$("$CSVQ" "$dir/fit.csv" technique metric lora_rank lora_targets warm n | awk -F'\t' '$1 == "lora" && $2 == "rss" { print $3, $4, $5, $6 }' | tr '\n' ';')" \
    "8 q,v  3;16 q,v  3;"
grep -q '^  tiny / cpu / lora / eager / lora_rank 16 / lora_targets q,v: ' "$TMP/fit.out" ||
    fail "fit does not name the rank-16 group: $(cat "$TMP/fit.out")"
grep -q '"lora_rank": "16"' "$dir/fit.json" || fail "fit.json has no rank-16 group"
true
