# Every technique runs on the tiny model, reports its trainable parameters,
# and orders as expected at batch 8: lora+ckpt < full+ckpt < full and
# inference < full (peak above baseline, and allocator peak).
source "$(dirname "$0")/lib.sh"
declare -A rss tensor trainable optimizer
for t in inference full full+ckpt bf16 lora lora+ckpt; do
    out=$("$PEAKFIT" worker --model tiny --technique "$t" --batch 8 --seq-len 128 --threads 1) || fail "$t failed: $out"
    rss[$t]=$(( $(worker_value peak_rss_kib "$out") - $(worker_value baseline_rss_kib "$out") ))
    tensor[$t]=$(worker_value tensor_peak_bytes "$out")
    trainable[$t]=$(worker_value trainable_params "$out")
    optimizer[$t]=$(worker_value optimizer_bytes "$out")
done
expect_eq "inference trainable" "${trainable[inference]}" 0
expect_eq "full trainable" "${trainable[full]}" 5245184
expect_eq "full+ckpt trainable" "${trainable[full+ckpt]}" 5245184
expect_eq "bf16 trainable" "${trainable[bf16]}" 5245184
# r=8 on q (256x256) and v (256x128) in 4 layers: 4 * 8 * (256+256 + 256+128)
expect_eq "lora trainable" "${trainable[lora]}" 28672
expect_eq "lora+ckpt trainable" "${trainable[lora+ckpt]}" 28672
expect_eq "full AdamW state (2 fp32 per weight)" "${optimizer[full]}" $((2 * 4 * 5245184))
expect_eq "bf16 AdamW state (2 bf16 per weight)" "${optimizer[bf16]}" $((2 * 2 * 5245184))
expect_eq "lora AdamW state (adapters only)" "${optimizer[lora]}" $((2 * 4 * 28672))
for metric in rss tensor; do
    declare -n m=$metric
    expect_gt "$metric: full > full+ckpt" "${m[full]}" "${m[full+ckpt]}"
    expect_gt "$metric: full+ckpt > lora+ckpt" "${m[full+ckpt]}" "${m[lora+ckpt]}"
    expect_gt "$metric: full > inference" "${m[full]}" "${m[inference]}"
    expect_gt "$metric: lora > lora+ckpt" "${m[lora]}" "${m[lora+ckpt]}"
done
out=$("$PEAKFIT" params smollm2-135m --technique lora+ckpt) || fail "params failed"
expect_eq "smollm2-135m lora+ckpt trainable" "$(awk '$1 == "trainable_params" { print $2 }' <<<"$out")" 460800
