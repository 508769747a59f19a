# `weights` given as a model folder stands for its sharded checkpoint's
# model.safetensors.index.json when it has one, else its model.safetensors;
# the index is checked by the worker's loading path, with the index's name
# in the message (exit 4), and a folder with neither is a bad option (exit 2).
# (Loading real shards, and each index error: tests/family_weights_test.c.)
source "$(dirname "$0")/lib.sh"
set -o pipefail
mkdir -p "$TMP/model"
worker() { "$PEAKFIT" worker --model tiny --technique load --threads 1 --weights "$TMP/model" 2>&1; }

out=$(worker); rc=$?
expect_eq "empty folder: exit status" "$rc" 2
expect_eq "empty folder: message" "$(head -1 <<<"$out")" \
    "peakfit worker: --weights: $TMP/model/model.safetensors: cannot open weights file: No such file or directory"

printf 'not safetensors' >"$TMP/model/model.safetensors"
out=$(worker); rc=$?
expect_eq "model.safetensors: exit status" "$rc" 4
expect_eq "model.safetensors: message" "$(worker_value error "$out")" \
    "$TMP/model/model.safetensors: header length 7306634592548843374 is past the end of the file (15 bytes)"

printf '{"metadata": {}, "weight_map": {"model.norm.weight": "model-00001-of-00001.safetensors"}}\n' \
    >"$TMP/model/model.safetensors.index.json"
out=$(worker); rc=$?
expect_eq "index: exit status" "$rc" 4
expect_eq "index: message" "$(worker_value error "$out")" \
    "$TMP/model/model-00001-of-00001.safetensors: No such file or directory"
printf '{"metadata": {}}\n' >"$TMP/model/model.safetensors.index.json"
out=$(worker); rc=$?
expect_eq "index without weight_map: exit status" "$rc" 4
expect_eq "index without weight_map: message" "$(worker_value error "$out")" \
    "$TMP/model/model.safetensors.index.json: weight_map must be an object mapping tensor names to shard files"
