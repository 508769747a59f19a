# `weights` given as a model folder stands for its sharded checkpoint's
# model.safetensors.index.json when it has one, else its model.safetensors;
# the index is checked by the worker's loading path, with the index's name
# in the message (exit 4), and a folder with neither is a bad option (exit 2).
# (Loading real shards, and each index error: tests/family_weights_test.c.)
source "$(dirname "$0")/lib.sh"
set -o pipefail
mkdir -p "$TMP/model"
# expect_worker WHAT STATUS MESSAGE: the worker loading the folder exits
# with STATUS; MESSAGE is its report's error (4) or its first line (2).
expect_worker() {
    local out rc got
    out=$("$PEAKFIT" worker --model tiny --technique load --threads 1 --weights "$TMP/model" 2>&1); rc=$?
    expect_eq "$1: exit status" "$rc" "$2"
    if [ "$2" -eq 4 ]; then got=$(worker_value error "$out"); else got=$(head -1 <<<"$out"); fi
    expect_eq "$1: message" "$got" "$3"
}

expect_worker "empty folder" 2 \
    "peakfit worker: --weights: $TMP/model/model.safetensors: cannot open weights file: No such file or directory"
printf 'not safetensors' >"$TMP/model/model.safetensors"
expect_worker "model.safetensors" 4 \
    "$TMP/model/model.safetensors: header length 7306634592548843374 is past the end of the file (15 bytes)"
printf '{"metadata": {}, "weight_map": {"model.norm.weight": "model-00001-of-00001.safetensors"}}\n' \
    >"$TMP/model/model.safetensors.index.json"
expect_worker "index" 4 "$TMP/model/model-00001-of-00001.safetensors: No such file or directory"
printf '{"metadata": {}}\n' >"$TMP/model/model.safetensors.index.json"
expect_worker "index without weight_map" 4 \
    "$TMP/model/model.safetensors.index.json: weight_map must be an object mapping tensor names to shard files"
