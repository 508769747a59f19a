# Parameter counts: SmolLM2-135M's preset and its LoRA r=8 on q,v (built only).
source "$(dirname "$0")/lib.sh"
out=$("$PEAKFIT" params smollm2-135m) || fail "params failed"
expect_eq "smollm2-135m parameters" "$(awk '$1 == "params" { print $2 }' <<<"$out")" 134515008
out=$("$PEAKFIT" params smollm2-135m --technique lora --lora-rank 8 --lora-targets q,v) || fail "lora params failed"
expect_eq "smollm2-135m LoRA r=8 q,v trainable" "$(awk '$1 == "trainable_params" { print $2 }' <<<"$out")" 460800
# The same architecture given as a Hugging Face config.json.
cat >"$TMP/config.json" <<'JSON'
{
  "architectures": ["LlamaForCausalLM"],
  "model_type": "llama",
  "hidden_size": 576,
  "intermediate_size": 1536,
  "num_attention_heads": 9,
  "num_hidden_layers": 30,
  "num_key_value_heads": 3,
  "rms_norm_eps": 1e-05,
  "rope_scaling": null,
  "rope_theta": 100000,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "vocab_size": 49152
}
JSON
out=$("$PEAKFIT" params "$TMP/config.json") || fail "params from config.json failed"
expect_eq "config.json parameters" "$(awk '$1 == "params" { print $2 }' <<<"$out")" 134515008
err=$("$PEAKFIT" params "$TMP/missing.json" 2>&1); rc=$?
expect_eq "missing config exit status" "$rc" 2
expect_eq "missing config message" "$err" "peakfit: cannot open model config $TMP/missing.json"
