# auto --budget below what the parameters alone hold (weights, gradients
# and AdamW state by arithmetic) is refused before anything is
# made or run, naming the sum; it ran b = 1, said nothing fits and exited
# 0. A budget above that sum but below the real fixed cost runs b = 1 and
# says, on stderr and in its exit status (4, as calc's plan that does not
# fit), that no micro-batch fits, naming what b = 1 measured.
source "$(dirname "$0")/lib.sh"
err=$("$PEAKFIT" auto tiny --technique full --seq-len 64 --threads 1 --budget 50MiB -o "$TMP/small" 2>&1 >/dev/null)
rc=$?
expect_eq "a budget below the state: exit status" "$rc" 2
expect_eq "a budget below the state: message" "$err" \
    "peakfit auto: --budget 50.0 MiB is below what the parameters alone hold for full: weights 20.0 + gradients 20.0 + optimizer state 40.0 = 80.0 MiB (by arithmetic, before the baseline and any activation): no micro-batch fits; nothing was run"
[ ! -e "$TMP/small" ] || fail "a refused budget created the output directory"
# inference holds only the weights (20 MiB): of the two, full is named.
err=$("$PEAKFIT" auto tiny --technique inference,full --seq-len 64 --budget 50MiB -o "$TMP/both" 2>&1 >/dev/null)
expect_eq "the technique that does not fit is named" "$(grep -o 'hold for [a-z]*' <<<"$err")" "hold for full"
# Above the parameters' 80 MiB, below what b = 1 holds with its baseline.
err=$("$PEAKFIT" auto tiny --technique full --seq-len 16 --threads 1 --budget 100MiB -o "$TMP/fixed" 2>&1 >/dev/null)
rc=$?
expect_eq "a budget below the fixed cost: exit status" "$rc" 4
read -r peak base <<<"$("$CSVQ" "$TMP/fixed/peaks.csv" peak_rss_mib baseline_rss_mib)"
awk -v p="$peak" 'BEGIN { exit !(p > 100) }' || fail "b = 1 measured $peak MiB, within the budget: the case is not tested"
expect_eq "a budget below the fixed cost: message" "$(tail -n 1 <<<"$err")" \
    "peakfit auto: full: no micro-batch fits --budget 100.0 MiB at seq_len 16: the smallest measured, b = 1, peaked at $(printf '%.1f' "$peak") MiB (baseline $(printf '%.1f' "$base") MiB included), over it"
true
