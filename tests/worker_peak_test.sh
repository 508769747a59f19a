# A real worker on the tiny model: its peak above baseline is positive and
# grows with the batch, by RSS and by the allocator's count.
source "$(dirname "$0")/lib.sh"
b1=$("$PEAKFIT" worker --model tiny --technique full --batch 1 --seq-len 128 --threads 1 --steps 2) ||
    fail "worker b=1 failed"
b8=$("$PEAKFIT" worker --model tiny --technique full --batch 8 --seq-len 128 --threads 1) || fail "worker b=8 failed"
above() { awk -v p="$(worker_value peak_rss_kib "$1")" -v b="$(worker_value baseline_rss_kib "$1")" 'BEGIN { print (p - b) / 1024 }'; }
expect_gt "b=1 peak above baseline (MiB)" "$(above "$b1")" 0
expect_gt "b=8 vs b=1 peak above baseline (MiB)" "$(above "$b8")" "$(above "$b1")"
expect_gt "b=8 vs b=1 tensor peak (bytes)" "$(worker_value tensor_peak_bytes "$b8")" "$(worker_value tensor_peak_bytes "$b1")"
# The fixed part is at least weights + grads + two AdamW states: 4 x 20 MiB.
expect_gt "b=1 tensor peak covers weights, grads and AdamW state" \
    "$(worker_value tensor_peak_bytes "$b1")" $((4 * 20980736))
expect_eq "optimizer state bytes (2 fp32 copies per weight)" "$(worker_value optimizer_bytes "$b1")" $((2 * 20980736))
expect_eq "loss is reported for each of the two steps" "$(grep -c '^loss=' <<<"$b1")" 2
[ -n "$(worker_value blas "$b1")" ] || fail "no BLAS library reported"
