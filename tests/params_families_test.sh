# `peakfit params` gives each family's published parameter count, by
# arithmetic, from the model's own config.json (tests/fixtures/models/,
# copied from the Hub), given as the file or as its folder, with the
# family named; and the LoRA targets of fused projections (Phi-3's
# qkv_proj, GPT-2's c_attn) count the whole fused module, as PEFT does.
source "$(dirname "$0")/lib.sh"
set -o pipefail
value() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }
models=$TESTS/fixtures/models

n=0
while read -r dir family count; do
    n=$((n + 1))
    out=$(ulimit -v "$(address_space_limit 3000000)"; "$PEAKFIT" params "$models/$dir") || fail "$dir: params failed"
    expect_eq "$dir: parameters" "$(value params "$out")" "$count"
    expect_eq "$dir: family" "$(value family "$out")" "$family"
    out=$("$PEAKFIT" params "$models/$dir/config.json") || fail "$dir/config.json: params failed"
    expect_eq "$dir/config.json: parameters" "$(value params "$out")" "$count"
done <<'LIST'
Qwen2.5-0.5B qwen2 494032768
gemma-2b gemma 2506172416
gemma-2-2b gemma2 2614341888
Phi-3-mini-4k-instruct phi3 3821079552
gpt2 gpt2 124439808
Mistral-7B-v0.1 mistral 7241732096
Llama-3.2-1B llama 1235814400
TinyLlama-1.1B llama 1100048384
LIST
[ "$n" -eq "$(ls "$models" | wc -l)" ] || fail "the list does not name every folder in $models"

# LoRA r=8 on q,v: Phi-3's fused qkv_proj (3072 -> 9216) and GPT-2's c_attn
# (768 -> 2304) each get one adapter per layer.
out=$("$PEAKFIT" params "$models/Phi-3-mini-4k-instruct" --technique lora --lora-rank 8 --lora-targets q,v)
expect_eq "phi3 LoRA q,v trainable" "$(value trainable_params "$out")" $((32 * 8 * (3072 + 9216)))
out=$("$PEAKFIT" params "$models/gpt2" --technique lora --lora-rank 8 --lora-targets q,v)
expect_eq "gpt2 LoRA q,v trainable" "$(value trainable_params "$out")" $((12 * 8 * (768 + 2304)))
out=$("$PEAKFIT" params "$models/gpt2" --technique lora --lora-rank 8 --lora-targets gate,up,down)
expect_eq "gpt2 LoRA MLP trainable" "$(value trainable_params "$out")" $((12 * 8 * 2 * (768 + 3072)))
