#!/usr/bin/env bash
# The peer check as one peakfit run (#20 item 6, in small): the same points
# measured by peakfit's own worker and by a command job running
# examples/transformers/train_step.py (PyTorch 2 + transformers, through
# examples/peakfit_report.py), side by side with their ratio per point.
# usage: bench/command-peers.sh [CONFIG.json] (default: the tiny llama config)
# Output: bench/results/command-peers.txt. Needs the venv (make venv).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CONFIG=${1:-$ROOT/bench/transformers/configs/tiny.json}
PYTHON=${PEAKFIT_PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PYTHON" ] || PYTHON=/work/main/.venv/bin/python
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cat >"$OUT/peers.sweep" <<SWEEP
[global]
model = $CONFIG
technique = full, lora
seq_len = 32, 64
batch = 2, 4
timeout = 600
threads = 1

[builtin]

[script]
command = $PYTHON $ROOT/examples/transformers/train_step.py --config {model} --batch {batch} --seq-len {seq_len} --technique {technique} --attention {attention} --threads {threads}
SWEEP
nice -n 10 bin/peakfit run "$OUT/peers.sweep" -o "$OUT/run" 2>"$OUT/log" || { cat "$OUT/log"; exit 1; }
{
    echo "# bench/command-peers.sh $(date -u +%FT%TZ): $(basename "$(dirname "$CONFIG")")/$(basename "$CONFIG"), one run"
    echo "# allocator-level tensor peak above baseline (MiB): peakfit's worker (libtorch $(build/tests/tools/csvq "$OUT/run/peaks.csv" job torch_version | awk '$1 == "builtin" {print $2; exit}')) vs the command (torch $(build/tests/tools/csvq "$OUT/run/peaks.csv" job torch_version | awk '$1 == "script" {print $2; exit}'), train_step.py)"
    printf '%-10s %5s %7s %12s %12s %8s %14s %14s\n' technique batch seq_len worker_mib command_mib ratio worker_rss_mib command_tree_mib
    build/tests/tools/csvq "$OUT/run/peaks.csv" job technique batch seq_len tensor_peak_mib peak_above_baseline_mib status |
        awk -F'\t' '$7 != "ok" { print "FAILED: " $0; next }
                    { k = $2 " " $3 " " $4; if ($1 == "builtin") { w[k] = $5; wr[k] = $6; order[++n] = k } else { c[k] = $5; cr[k] = $6 } }
                    END { for (i = 1; i <= n; i++) { k = order[i]; split(k, f, " ");
                          printf "%-10s %5s %7s %12.3f %12.3f %8.4f %14.1f %14.1f\n", f[1], f[2], f[3], w[k], c[k], c[k] / w[k], wr[k], cr[k] } }'
    echo "# RSS columns: the worker's own VmHWM above its baseline (memory_method vmhwm) vs the command's whole"
    echo "# process tree above the baseline it reported (tree-poll); different libtorch builds, so RSS is not comparable."
} | tee bench/results/command-peers.txt
