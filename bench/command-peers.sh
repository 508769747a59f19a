#!/usr/bin/env bash
# The peer check as one peakfit run (#20 item 6): the same points
# measured by peakfit's own worker and by a command job running
# examples/transformers/train_step.py (PyTorch 2 + transformers, through
# examples/peakfit_report.py), fitted (the two jobs are two groups: the
# group key's measured_by) and side by side with their ratio per point.
# usage: bench/command-peers.sh [CONFIG.json] [RESULTS_DIR]
#   CONFIG.json  default: the tiny llama config
#   RESULTS_DIR  keep the run there (peaks.csv, fit.csv, report.md; a rerun
#                resumes) and write RESULTS_DIR/summary.txt; default: a
#                temporary run, summary in bench/results/command-peers.txt
#   PEAKFIT=bin/peakfit   the peakfit (built against the PyTorch of the venv
#                         for like-for-like RSS: build-torch2/bin/peakfit)
#   TECHNIQUE="full, lora" SEQ_LEN="32, 64" BATCH="2, 4" THREADS=1
#   ATTENTION=sdpa        the sweep's values (as the sweep file writes lists)
# Needs the venv (make venv).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CONFIG=${1:-$ROOT/bench/transformers/configs/tiny.json}
RESULTS=${2:-}
PEAKFIT=${PEAKFIT:-bin/peakfit}
PYTHON=${PEAKFIT_PYTHON:-$ROOT/.venv/bin/python}
CSVQ=${CSVQ:-build/tests/tools/csvq}
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
RUN=${RESULTS:-$TMPD/run}
SUMMARY=${RESULTS:+$RESULTS/summary.txt}
SUMMARY=${SUMMARY:-${OUT:-bench/results/command-peers.txt}}
mkdir -p "$RUN"
cat >"$RUN/peers.sweep" <<SWEEP
[global]
model = $CONFIG
technique = ${TECHNIQUE:-full, lora}
seq_len = ${SEQ_LEN:-32, 64}
batch = ${BATCH:-2, 4}
attention = ${ATTENTION:-sdpa}
timeout = 30m
threads = ${THREADS:-1}

[builtin]

[script]
command = $PYTHON $ROOT/examples/transformers/train_step.py --config {model} --batch {batch} --seq-len {seq_len} --technique {technique} --attention {attention} --threads {threads}
SWEEP
"$PEAKFIT" run "$RUN/peers.sweep" -o "$RUN" 2>"$RUN/run.log" || { cat "$RUN/run.log"; exit 1; }
"$PEAKFIT" fit "$RUN" >"$RUN/fit.txt" 2>&1
"$PEAKFIT" report "$RUN" >/dev/null
{
    echo "# bench/command-peers.sh $(date -u +%FT%TZ): $(basename "$(dirname "$CONFIG")")/$(basename "$CONFIG"), one run"
    echo "# PEAKFIT=$(realpath -m --relative-base="$ROOT" "$PEAKFIT") bench/command-peers.sh ${1:-} ${2:-} (TECHNIQUE=\"${TECHNIQUE:-full, lora}\" SEQ_LEN=\"${SEQ_LEN:-32, 64}\" BATCH=\"${BATCH:-2, 4}\" THREADS=${THREADS:-1})"
    echo "# allocator-level tensor peak above baseline (MiB): peakfit's worker (libtorch $("$CSVQ" "$RUN/peaks.csv" job torch_version | awk '$1 == "builtin" {print $2; exit}')) vs the command (torch $("$CSVQ" "$RUN/peaks.csv" job torch_version | awk '$1 == "script" {print $2; exit}'), train_step.py)"
    printf '%-10s %5s %7s %12s %12s %8s %14s %14s\n' technique batch seq_len worker_mib command_mib ratio worker_rss_mib command_tree_mib
    "$CSVQ" "$RUN/peaks.csv" job technique batch seq_len tensor_peak_mib peak_above_baseline_mib status |
        awk -F'\t' '$7 != "ok" { print "FAILED: " $0; next }
                    { k = $2 " " $3 " " $4; if ($1 == "builtin") { w[k] = $5; wr[k] = $6; order[++n] = k } else { c[k] = $5; cr[k] = $6 } }
                    END { for (i = 1; i <= n; i++) { k = order[i]; split(k, f, " ");
                          printf "%-10s %5s %7s %12.3f %12.3f %8.4f %14.1f %14.1f\n", f[1], f[2], f[3], w[k], c[k], c[k] / w[k], wr[k], cr[k] } }'
    echo "# RSS columns: the worker's own VmHWM above its baseline (memory_method vmhwm) vs the command's whole"
    echo "# process tree above the baseline it reported (tree-poll)."
    echo "# The fits (peakfit fit: the two jobs are two groups by measured_by) and report.md's side-by-side section:"
    echo
    awk '/^## The same points, measured two ways/ { on = 1 } on && /^## / && !/measured two ways/ { exit } on' "$RUN/report.md"
} | tee "$SUMMARY"
