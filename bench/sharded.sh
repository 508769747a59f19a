#!/usr/bin/env bash
# Sharded training measured beside calc: each rank's allocator-level peak
# under DDP, DDP + ZeroRedundancyOptimizer (ZeRO-1) and FSDP2 fully_shard
# (ZeRO-3), on CPU with gloo at G ranks, beside `peakfit calc --replicas G
# --zero Z --metric tensor` from the single-process fit of the same model
# and step (examples/distributed/train_sharded.py for both).
# usage: bench/sharded.sh [CONFIG.json] [RESULTS_DIR]
#   CONFIG.json  default: bench/configs/llama-16m/config.json
#   RESULTS_DIR  keep the runs there (single/ is peakfit's run and fit; one
#                folder of rank reports per distributed point; a rerun
#                measures only what is missing) and write RESULTS_DIR/table.txt;
#                default: a temporary folder, table in bench/results/sharded.txt
#   STRATEGIES="ddp zero1 fsdp2" RANKS="2 4" BATCH="1 2 4" SEQ_LEN=128
#   SINGLE_BATCH="1, 2, 3, 4, 6, 8"   the single-process sweep's batches
#   PEAKFIT=bin/peakfit
# Needs the venv (make venv). Each distributed point starts G processes at
# one intra-op thread each; 4 ranks of the default model hold about 4 GiB.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CONFIG=${1:-$ROOT/bench/configs/llama-16m/config.json}
RESULTS=${2:-}
PEAKFIT=${PEAKFIT:-bin/peakfit}
PYTHON=${PEAKFIT_PYTHON:-$ROOT/.venv/bin/python}
TORCHRUN=$(dirname "$PYTHON")/torchrun
SCRIPT=$ROOT/examples/distributed/train_sharded.py
STRATEGIES=${STRATEGIES:-ddp zero1 fsdp2}
RANKS=${RANKS:-2 4}
BATCH=${BATCH:-1 2 4}
SEQ_LEN=${SEQ_LEN:-128}
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
RUN=${RESULTS:-$TMPD/run}
TABLE=${RESULTS:+$RESULTS/table.txt}
TABLE=${TABLE:-${OUT:-bench/results/sharded.txt}}
mkdir -p "$RUN/single"

# The single-process fit: a command job of the same script, one process.
cat >"$RUN/single/single.sweep" <<SWEEP
[global]
model = $CONFIG
technique = full
seq_len = $SEQ_LEN
batch = ${SINGLE_BATCH:-1, 2, 3, 4, 6, 8}
timeout = 20m
threads = 1

[single]
command = $PYTHON $SCRIPT --config {model} --strategy single --batch {batch} --seq-len {seq_len} --threads {threads}
SWEEP
"$PEAKFIT" run "$RUN/single/single.sweep" -o "$RUN/single" 2>"$RUN/single/run.log" || { cat "$RUN/single/run.log"; exit 1; }
"$PEAKFIT" fit "$RUN/single" >"$RUN/single/fit.txt" 2>&1

zero_of() { case $1 in zero1) echo 1 ;; fsdp2) echo 3 ;; *) echo 0 ;; esac; }

# Each rank's line of key=value: its report's value of key, in MiB.
rank_mib() { awk -F= -v k="$1" '$1 == k { printf "%.3f\n", $2 / 1048576 }' "$2"; }

measure() { # strategy ranks batch -> its folder of rank reports
    local dir=$RUN/$1-g$2-b$3
    if [ "$(cat "$dir"/rank-*.report 2>/dev/null | grep -c '^tensor_peak_bytes=')" != "$2" ]; then
        rm -rf "$dir"
        "$TORCHRUN" --standalone --nproc-per-node "$2" "$SCRIPT" --config "$CONFIG" --strategy "$1" \
            --batch "$3" --seq-len "$SEQ_LEN" --report-dir "$dir" >"$TMPD/torchrun.log" 2>&1 ||
            { tail -20 "$TMPD/torchrun.log"; exit 1; }
    fi
    echo "$dir"
}

calc_mib() { # ranks zero batch -> calc's predicted allocator-level peak above baseline
    local zero=()
    [ "$2" = 0 ] || zero=(--zero "$2")
    "$PEAKFIT" calc "$RUN/single" --budget 1TiB --metric tensor --micro-batch "$3" --replicas "$1" "${zero[@]}" \
        --config "$CONFIG" --json |
        "$PYTHON" -c "import json, sys; p = json.load(sys.stdin); print('%.3f' % (p['predicted_peak_mib'] - p['baseline_mib']))"
}

# The shards alone: the single process's prediction less (G-1)/G of what
# stage Z shards (optimizer state; + gradients at 2; + weights at 3), with
# nothing added: what calc planned before its sharding terms.
shards_mib() { # ranks zero batch
    local state
    state=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                     { print $c["weight_mib"], $c["grad_mib"], $c["optimizer_mib"]; exit }' "$RUN/single/peaks.csv")
    echo "$(calc_mib 1 0 "$3") $state" | awk -v g="$1" -v z="$2" \
        '{ printf "%.3f\n", $1 - (g - 1) / g * ((z >= 1) * $4 + (z >= 2) * $3 + (z >= 3) * $2) }'
}

{
    echo "# bench/sharded.sh $(date -u +%FT%TZ): $(basename "$(dirname "$CONFIG")")/$(basename "$CONFIG"), seq_len $SEQ_LEN, one run"
    echo "# torch $("$PYTHON" -c 'import torch; print(torch.__version__)'), CPU, gloo, one intra-op thread per rank; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# single-process fit (tensor): $(awk '$4 == "tensor"' "$RUN/single/fit.txt" | head -1)"
    echo "# allocator-level peak of live CPU tensors above each rank's baseline (MiB), every rank's; calc: peakfit calc --metric tensor --replicas G [--zero Z] --micro-batch b --config CONFIG"
    echo "# shards: the single process's prediction less (G-1)/G of what stage Z shards, nothing added (calc before its sharding terms)"
    printf '%-7s %2s %2s %5s %-40s %11s %10s %9s %10s %11s\n' strategy G Z batch ranks_mib largest_mib calc_mib calc/meas \
        shards_mib shards/meas
    for s in $STRATEGIES; do
        for g in $RANKS; do
            for b in $BATCH; do
                dir=$(measure "$s" "$g" "$b")
                peaks=$(for f in "$dir"/rank-*.report; do rank_mib tensor_peak_bytes "$f"; done)
                largest=$(echo "$peaks" | sort -g | tail -1)
                z=$(zero_of "$s")
                c=$(calc_mib "$g" "$z" "$b")
                bare=$(shards_mib "$g" "$z" "$b")
                printf '%-7s %2s %2s %5s %-40s %11s %10s %9.4f %10s %11.4f\n' "$s" "$g" "$z" "$b" \
                    "$(echo $peaks | tr ' ' ,)" "$largest" "$c" "$(echo "$c / $largest" | bc -l)" \
                    "$bare" "$(echo "$bare / $largest" | bc -l)"
            done
        done
    done
    echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$TABLE"
