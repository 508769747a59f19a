#!/usr/bin/env bash
# The automated sweep (peakfit auto) on SmolLM2-135M and a Qwen2.5-0.5B-shaped
# config (bench/configs/qwen2.5-0.5b), techniques full and lora, on CPU:
#   1. auto: the points it chose, how many, how long (wall clock and worker time);
#   2. held-out: off-grid points below and above the knee and up to 2x past the
#      largest measured batch, measured into a copy of the auto directory as the
#      sweep's `holdout` points, then `peakfit fit` predicts them;
#   3. budget: the largest micro-batch within a budget, from scratch, and the
#      next size up measured afterwards as a check (not one of the search's runs).
# Every stage resumes (rerun to continue). bench/auto-sweep-summary.py then
# writes bench/results/auto-sweep/summary.txt (re-fitting only: no measurement).
# Usage: bench/auto-sweep.sh MODEL [STAGE...]   MODEL: smollm2 or qwen; STAGE: auto,
# heldout, budget (default: all three, in that order)
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/results/auto-sweep
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp bin/peakfit bin/peakfit-worker "$tmp/" # a rebuild meanwhile changes nothing here
export PEAKFIT_WORKER=$tmp/peakfit-worker
# One big run at a time on this shared machine (/work/team/bigmem.lock).
pf() { flock /work/team/bigmem.lock nice -n 10 "$tmp/peakfit" "$@"; }

# model, seq_len, budget, held-out points of the full job (BxS; "1.5x" is 1.5
# times the largest batch auto measured, at its seq_len: 2x costs more time
# than this shared machine had)
declare -A MODEL=([smollm2]=smollm2-135m [qwen]=bench/configs/qwen2.5-0.5b/config.json)
declare -A SEQ=([smollm2]=256 [qwen]=128)
declare -A BUDGET=([smollm2]=4.5GiB [qwen]=12GiB)
# each point's mem_limit (RSS above baseline): what this shared machine can give
declare -A LIMIT=([smollm2]=11GiB [qwen]=14GiB)
declare -A HELD=([smollm2]="1x128 3x64 3x128 5x128 6x128 1.5x" [qwen]="1x64 3x64 3x96 6x96 1.5x")

# stage NAME DIR COMMAND...: runs a stage, its stdout and timing into DIR/auto.txt
stage() {
    local name=$1 dir=$2 t0 t1
    shift 2
    mkdir -p "$dir"
    t0=$(date +%s)
    "$@" >"$dir/$name.txt" 2>"$dir/$name.err" || echo "exit status $?" >>"$dir/$name.txt"
    t1=$(date +%s)
    echo "# $name: $((t1 - t0)) s wall clock, $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/$name.txt"
}

# The held-out sweep: auto.sweep with `holdout` in its full job (the
# technique whose knee matters; each point costs minutes on this machine).
held_sweep() {
    local key=$1 dir=$2 held=() b bmax
    bmax=$(awk '/^\[auto-full\]/ { f = 1 } f && /^batch = / { gsub(/[^0-9 ]/, ""); n = split($0, a, " "); print a[n]; exit }' \
        "$dir/auto.sweep")
    for p in ${HELD[$key]}; do
        if [ "$p" = 1.5x ]; then held+=("$((3 * bmax / 2))x${SEQ[$key]}"); else held+=("$p"); fi
    done
    b=$(IFS=,; echo "${held[*]}")
    awk -v h="holdout = ${b//,/, }" '{ print } /^\[/ { f = ($0 == "[auto-full]") } f && /^batch = / { print h }' "$dir/auto.sweep"
}

auto_stage() {
    local d=$out/$1
    stage auto "$d-auto" pf auto "${MODEL[$1]}" --technique full,lora --seq-len "${SEQ[$1]}" --threads 2 \
        --mem-limit "${LIMIT[$1]}" -o "$d-auto"
}

heldout_stage() {
    local d=$out/$1
    mkdir -p "$d-heldout"
    [ -f "$d-heldout/peaks.csv" ] || cp "$d-auto/peaks.csv" "$d-heldout/"
    held_sweep "$1" "$d-auto" >"$d-heldout/heldout.sweep"
    stage run "$d-heldout" pf run "$d-heldout/heldout.sweep" -o "$d-heldout"
}

budget_stage() {
    local d=$out/$1 b
    stage budget "$d-budget" pf auto "${MODEL[$1]}" --technique full --seq-len "${SEQ[$1]}" --threads 2 \
        --budget "${BUDGET[$1]}" --mem-limit "${LIMIT[$1]}" -o "$d-budget"
    # The check: the next size up from the largest found, measured after the search.
    b=$(sed -n 's/.*the largest micro-batch within .*: b = \([0-9]*\) .*/\1/p' "$d-budget/budget.txt")
    if [ -n "$b" ]; then
        sed "s/^batch = .*/batch = $((b + 1))/" "$d-budget/auto.sweep" >"$d-budget/check.sweep"
        stage check "$d-budget/check" pf run "$d-budget/check.sweep" -o "$d-budget/check"
    fi
}

key=$1
shift
[ -n "${MODEL[$key]:-}" ] || { echo "usage: $0 smollm2|qwen [auto] [heldout] [budget]" >&2; exit 2; }
for st in "${@:-auto heldout budget}"; do
    for s in $st; do "${s}_stage" "$key"; done
done
