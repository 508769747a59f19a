# Parameter counts and bytes from `peakfit params`, which answers from the
# config's arithmetic without building the model: SmolLM2-135M's preset, its
# LoRA adapters, Llama-2 7B and 70B under a 3 GB address-space limit (their
# weights alone are 27 and 276 GB), the model's name, and its errors.
source "$(dirname "$0")/lib.sh"
set -o pipefail
# value KEY OUTPUT
value() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }

out=$("$PEAKFIT" params smollm2-135m) || fail "params failed"
expect_eq "smollm2-135m parameters" "$(value params "$out")" 134515008
expect_eq "smollm2-135m full: optimizer bytes (AdamW, two fp32 moments)" "$(value optimizer_bytes "$out")" 1076120064
out=$("$PEAKFIT" params smollm2-135m --technique lora --lora-rank 8 --lora-targets q,v) || fail "lora params failed"
expect_eq "smollm2-135m LoRA r=8 q,v trainable" "$(value trainable_params "$out")" 460800
expect_eq "smollm2-135m LoRA r=8 q,v grad bytes" "$(value grad_bytes "$out")" $((460800 * 4))
out=$("$PEAKFIT" params tiny --technique bf16) || fail "bf16 params failed"
expect_eq "tiny bf16 weight bytes" "$(value weight_bytes "$out")" $((5245184 * 2))
out=$("$PEAKFIT" params tiny --technique inference) || fail "inference params failed"
expect_eq "tiny inference trains nothing" "$(value trainable_params "$out") $(value optimizer_bytes "$out")" "0 0"

# llama_config FILE HIDDEN INTERMEDIATE HEADS LAYERS KV_HEADS VOCAB TIE [NAME_OR_PATH]
llama_config() {
    cat >"$1" <<JSON
{
  "architectures": ["LlamaForCausalLM"],
  ${9:+\"_name_or_path\": \"$9\",}
  "model_type": "llama",
  "hidden_size": $2,
  "intermediate_size": $3,
  "num_attention_heads": $4,
  "num_hidden_layers": $5,
  "num_key_value_heads": $6,
  "rms_norm_eps": 1e-05,
  "rope_scaling": null,
  "rope_theta": 100000,
  "tie_word_embeddings": $8,
  "torch_dtype": "bfloat16",
  "vocab_size": $7
}
JSON
}
llama_config "$TMP/config.json" 576 1536 9 30 3 49152 true
out=$("$PEAKFIT" params "$TMP/config.json") || fail "params from config.json failed"
expect_eq "config.json parameters" "$(value params "$out")" 134515008

mkdir -p "$TMP/Llama-2-7b-hf" "$TMP/70b"
vm_limit=$(address_space_limit 3000000)
llama_config "$TMP/Llama-2-7b-hf/config.json" 4096 11008 32 32 32 32000 false
llama_config "$TMP/70b/config.json" 8192 28672 64 80 8 32000 false meta-llama/Llama-2-70b-hf
out=$(ulimit -v $vm_limit; "$PEAKFIT" params "$TMP/Llama-2-7b-hf" --technique lora --lora-rank 16 \
      --lora-targets q,k,v,o,gate,up,down) || fail "7B params failed under a 3 GB limit"
expect_eq "7B name (its folder)" "$(value model "$out")" Llama-2-7b-hf
expect_eq "7B parameters (with adapters)" "$(value params "$out")" $((6738415616 + 39976960))
expect_eq "7B LoRA r=16 on every projection" "$(value trainable_params "$out")" 39976960
out=$(ulimit -v $vm_limit; "$PEAKFIT" params "$TMP/70b/config.json") || fail "70B params failed under a 3 GB limit"
expect_eq "70B name (_name_or_path)" "$(value model "$out")" Llama-2-70b-hf
expect_eq "70B parameters" "$(value params "$out")" 68976648192
expect_eq "70B weight bytes" "$(value weight_bytes "$out")" $((68976648192 * 4))

# Names: _name_or_path's last part (trailing slash and control characters
# aside), else the folder holding config.json, else the file's stem.
llama_config "$TMP/my-model.json" 256 768 4 4 2 8192 true
expect_eq "name from the file's stem" "$("$PEAKFIT" params "$TMP/my-model.json" | head -1)" "model my-model"
llama_config "$TMP/local.json" 256 768 4 4 2 8192 true '/home/me/models/Local-1B/'
expect_eq "name from a local _name_or_path" "$("$PEAKFIT" params "$TMP/local.json" | head -1)" "model Local-1B"
llama_config "$TMP/ctl.json" 256 768 4 4 2 8192 true 'org/a\nb'
expect_eq "control characters in a name" "$("$PEAKFIT" params "$TMP/ctl.json" | head -1)" "model a_b"

# Errors: exit status 2 and the option or file named.
err=$("$PEAKFIT" params "$TMP/missing.json" 2>&1); rc=$?
expect_eq "missing config exit status" "$rc" 2
expect_eq "missing config message" "$err" "peakfit: $TMP/missing.json: cannot open model config: No such file or directory"
err=$("$PEAKFIT" params tiny --lora-rank 0 2>&1); rc=$?
expect_eq "bad rank exit status" "$rc" 2
expect_eq "bad rank message" "$err" 'peakfit params: --lora-rank must be a whole number from 1 to 65536, not "0"'
err=$("$PEAKFIT" params tiny --technique 2>&1); rc=$?
expect_eq "missing value exit status" "$rc" 2
expect_eq "missing value message" "$err" "peakfit params: --technique needs a value: --technique T, the technique whose counts to print"
"$PEAKFIT" params --help | grep -q '^usage: peakfit params MODEL' || fail "params --help does not print the usage on stdout"
