# The optimizer's state that grid --peaks and auto's budget count is the
# optimizer the sweep runs: SGD keeps one moment, AdamW two. grid --peaks
# once predicted the same 652 MiB for both (tiny, b 8, s 128), and
# `auto --optimizer sgd --budget` refused a budget with AdamW's state.
source "$(dirname "$0")/lib.sh"
# params NAME [OPTIONS]: the value of params' line NAME, in bytes.
params() { local name=$1; shift; "$PEAKFIT" params tiny "$@" | awk -v n="$name" '$1 == n { print $2 }'; }
sgd_state=$(params optimizer_bytes --optimizer sgd)
adamw_state=$(params optimizer_bytes --optimizer adamw)
expect_eq "AdamW's state is twice SGD's" "$adamw_state" "$((2 * sgd_state))"

printf '[adamw]\nmodel = tiny\ntechnique = full\noptimizer = adamw\nbatch = 8\nseq_len = 128\n[sgd]\nmodel = tiny\ntechnique = full\noptimizer = sgd\nbatch = 8\nseq_len = 128\n' \
    >"$TMP/o.sweep"
"$PEAKFIT" grid "$TMP/o.sweep" --peaks >/dev/null 2>"$TMP/err" || fail "grid --peaks: exit status $?: $(cat "$TMP/err")"
peak() { sed -n "s|^  $1/tiny/.*: expected peak \([0-9]*\) MiB (arithmetic)\$|\1|p" "$TMP/err"; }
expect_eq "grid --peaks: AdamW's peak over SGD's, in MiB (one moment's state)" \
    "$(($(peak adamw) - $(peak sgd)))" "$(awk -v b="$sgd_state" 'BEGIN { printf "%.0f", b / 1048576 }')"

# auto's budget check: SGD's state, not AdamW's.
sum=$(awk -v w="$(params weight_bytes --optimizer sgd)" -v g="$(params grad_bytes --optimizer sgd)" -v s="$sgd_state" \
    'BEGIN { printf "%.1f", (w + g + s) / 1048576 }')
err=$("$PEAKFIT" auto tiny --technique full --seq-len 64 --optimizer sgd --budget 50MiB -o "$TMP/a" 2>&1 >/dev/null)
expect_eq "auto --optimizer sgd --budget 50MiB: message" "$err" \
    "peakfit auto: --budget 50.0 MiB is below what the parameters alone hold for full: weights 20.0 + gradients 20.0 + optimizer state 20.0 = $sum MiB (by arithmetic, before the baseline and any activation): no micro-batch fits; nothing was run"
true
