# auto --budget below what the parameters alone hold (weights, gradients
# and AdamW state by arithmetic) is refused before anything is made or
# run, naming the sum; it ran b = 1, said nothing fits and exited 0.
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
true
