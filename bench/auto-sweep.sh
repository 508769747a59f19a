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
# heldout, budget (default: all three, in that order); dense, rescore, both (smollm2: its
# s = 256 and s = 128 auto sweeps fitted as one, measuring nothing)
#        bench/auto-sweep.sh all   (bench/run auto-sweep: every model's stages, in ALL's order)
# Before a stage and after it, bench/peaks-tidy.py tidies the directories: the
# rows of a worker that never started dropped (they are measured again), the
# columns of the peakfit that runs now added to an older peaks.csv, model paths
# relative to the repository. A point already in a directory is not run again,
# nor does it wait for LOCK.
# OUT: the folder (default bench/results/auto-sweep); PEAKFIT: the peakfit.
# The committed folder is historical; how and when each of its directories
# was measured: bench/auto-sweep-notes.md.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/results/auto-sweep}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "${PEAKFIT:-bin/peakfit}" "${PEAKFIT_WORKER:-bin/peakfit-worker}" "$tmp/" # a rebuild meanwhile changes nothing here
export PEAKFIT_WORKER=$tmp/peakfit-worker
# LOCK=FILE: each measuring run under flock FILE, so that on a machine
# shared with other memory-hungry work only one big run goes at a time;
# NICE=N: its priority.
pf() {
    ${LOCK:+flock "$LOCK"} nice -n "${NICE:-0}" "$tmp/peakfit" "$@"
}

# model, seq_len, budget, held-out points of the full job (BxS; "2x" is twice
# the largest batch auto measured, at its seq_len, "2x@S" at seq_len S; "plan"
# is calc's micro-batch for the PLAN budget from auto's fit, at its seq_len:
# measured, it checks the plan too). A listed point that auto measured itself
# is on its grid: not held out.
# smollm2-128: SmolLM2-135M at seq_len 128, where b = 1, 2 and 3 lie below the
# knee (about 400 tokens): RSS's floor rises with T, and at s = 256 only b = 1
# lies on it, so no sweep there can measure how it rises.
# smollm2-2s: SmolLM2-135M full at two seq_lens in one auto sweep (auto
# --seq-len 256,128), seeded with smollm2-auto's full points at s = 256 (its
# sweep resumes with the second seq_len: only s = 128 is measured).
declare -A MODEL=([smollm2]=smollm2-135m [smollm2-128]=smollm2-135m [smollm2-2s]=smollm2-135m
    [qwen]=bench/configs/qwen2.5-0.5b/config.json)
declare -A SEQ=([smollm2]=256 [smollm2-128]=128 [smollm2-2s]=256,128 [qwen]=128)
declare -A TECH=([smollm2-2s]=full)
declare -A BUDGET=([smollm2]=4.5GiB [smollm2-128]=4.5GiB [qwen]=16GiB)
declare -A PLAN=([smollm2]=8GiB [smollm2-128]=8GiB [qwen]=18GiB)
# each auto point's mem_limit (RSS above baseline): auto stays below it, so
# that held-out points reach twice its largest batch on this 23.5 GiB machine.
# Qwen's was 12 GiB (b <= 8 at s = 128): its RSS is in the heap's transition
# up to T ~ 1024 and linear only past it (5.07 MiB/token against the
# allocator's 4.21), so auto's RSS criterion needs points up to ~14 GiB;
# twice its largest batch is then measured at s = 64 (2x@64).
declare -A LIMIT=([smollm2]=11GiB [smollm2-128]=11GiB [smollm2-2s]=11GiB [qwen]=15GiB)
# the mem_limit of the held-out, dense and budget points: what the machine can give
# (SmolLM2's was 11 GiB: b16 s256, 11478 MiB above baseline, stopped there as oom)
declare -A BIG=([smollm2]=13GiB [smollm2-128]=13GiB [qwen]=21GiB)
declare -A HELD=([smollm2]="1x128 3x128 6x128 6x384 1x1024 12x256 16x256 2x@128 plan" [smollm2-128]="1x256 2x160 3x256 5x192 7x128 2x"
    [qwen]="3x128 3x192 10x128 6x256 16x128 17x128 2x@64 plan")
# the dense grid: auto's points, the held-out points (as fitted points) and these (TECHNIQUE:B,B,...)
declare -A DENSE=([smollm2]="" [smollm2-128]="" [qwen]="lora:8,16")

# stage NAME DIR COMMAND...: runs a stage, its stdout and timing into DIR/NAME.txt
stage() {
    local name=$1 dir=$2 t0 t1
    shift 2
    mkdir -p "$dir"
    t0=$(date +%s)
    "$@" >>"$dir/$name.txt" 2>>"$dir/$name.err" || echo "exit status $?" >>"$dir/$name.txt"
    t1=$(date +%s)
    echo "# $name: $((t1 - t0)) s wall clock, $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/$name.txt"
}

# points_sweep KEY TECHNIQUE JOB BxS...: a sweep of these points at the BIG
# mem_limit, one job per seq_len.
points_sweep() {
    local key=$1 tech=$2 job=$3 s m=${MODEL[$1]}
    shift 3
    [ -e "$m" ] && m=$PWD/$m # a config.json (a preset is a name)
    printf '[global]\nmodel = %s\ndevice = cpu\nattention = sdpa\nthreads = 2\nmem_limit = %s\ntimeout = 30m\n' \
        "$m" "${BIG[$key]}"
    for s in $(printf '%s\n' "$@" | cut -dx -f2 | sort -un); do
        printf '\n[%s-s%s]\ntechnique = %s\nseq_len = %s\nbatch = %s\n' "$job" "$s" "$tech" "$s" \
            "$(printf '%s\n' "$@" | awk -F x -v s="$s" '$2 == s { printf "%s%s", n++ ? ", " : "", $1 }')"
    done
}

# auto's full batches in DIR, one per line.
auto_batches() {
    awk '/^\[auto-full\]/ { f = 1 } f && /^batch = / { gsub(/[^0-9 ]/, ""); n = split($0, a, " ");
        for (i = 1; i <= n; i++) print a[i]; exit }' "$1/auto.sweep"
}

# The held-out points of KEY, BxS, with 2x and plan resolved from DIR (auto's),
# those on auto's grid left out.
held_points() {
    local key=$1 dir=$2 p bmax plan
    bmax=$(auto_batches "$dir" | sort -n | tail -1)
    for p in ${HELD[$key]}; do
        case $p in
        2x) echo "$((2 * bmax))x${SEQ[$key]}" ;;
        2x@*) echo "$((2 * bmax))x${p#2x@}" ;;
        plan)
            plan=$("$tmp/peakfit" calc "$dir" --budget "${PLAN[$key]}" --technique full --seq-len "${SEQ[$key]}" --json |
                jq -r .max_micro_batch)
            [ "$plan" -gt 0 ] && echo "${plan}x${SEQ[$key]}" ;;
        *) echo "$p" ;;
        esac
    done | sort -u | while IFS=x read -r b s; do
        if [ "$s" = "${SEQ[$key]}" ] && auto_batches "$dir" | grep -qx "$b"; then
            echo "held-out ${b}x$s: on auto's grid, not held out" >&2
        else
            echo "${b}x$s"
        fi
    done
}

# run_points NAME SWEEP DIR: measures SWEEP into DIR one point per run
# (--point K), each under LOCK on its own: no stage holds it for long.
run_points() {
    local name=$1 sweep=$2 dir=$3 n k
    n=$("$tmp/peakfit" grid "$sweep" 2>/dev/null | wc -l)
    for ((k = 0; k < n; k++)); do
        measured "$sweep" "$dir" "$k" || stage "$name" "$dir" pf run "$sweep" -o "$dir" --point "$k"
    done
}

# measured SWEEP DIR K: whether point K of SWEEP has a row in DIR/peaks.csv
# that a resumed run keeps (ok or oom): then run_points skips it without the lock.
measured() {
    local id
    [ -f "$2/peaks.csv" ] || return 1
    id=$("$tmp/peakfit" grid "$1" 2>/dev/null | sed -n "$(($3 + 1))p" | cut -f1)
    awk -F, -v id="$id" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") s = i; next }
        $1 == id && ($s == "ok" || $s == "oom") { found = 1 } END { exit !found }' "$2/peaks.csv"
}

# rows CSV HOLDOUT: CSV's data rows with the holdout column set (by its header name)
rows_as() {
    awk -F, -v OFS=, -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "holdout") h = i; next } { $h = v; print }' "$1"
}

# in_sweep SWEEP: the rows on stdin whose point_id the sweep lists (a point
# measured for an earlier list stays in measured/, out of the fit).
in_sweep() {
    awk -F, 'NR == FNR { want[$1] = 1; next } $1 in want' <("$tmp/peakfit" grid "$1" 2>/dev/null | cut -f1) -
}

auto_stage() {
    local d=$out/$1
    if [ "$1" = smollm2-2s ] && [ ! -e "$d-auto/peaks.csv" ]; then
        mkdir -p "$d-auto"
        awk '/^\[auto-lora\]/ { exit } { print }' "$out/smollm2-auto/auto.sweep" >"$d-auto/auto.sweep"
        # this version's columns (smollm2-128-auto's header), then the rows by name
        bench/peaks-combine.py "$d-auto/peaks.csv" <(head -1 "$out/smollm2-128-auto/peaks.csv") \
            <(awk -F, 'NR == 1 || $5 == "full"' "$out/smollm2-auto/peaks.csv") -- >/dev/null
    fi
    stage auto "$d-auto" pf auto "${MODEL[$1]}" --technique "${TECH[$1]:-full,lora}" --seq-len "${SEQ[$1]}" --threads 2 \
        --mem-limit "${LIMIT[$1]}" ${SLICE:+--time "$SLICE"} -o "$d-auto"
}

# Held-out points: measured into DIR/measured (a sweep of their own: auto's
# mem_limit would stop the largest), then added as held-out rows to a copy of
# auto's peaks.csv and predicted by `peakfit fit` (the report's tables). The
# plan for PLAN from auto's fit is kept in DIR/plan.txt.
heldout_stage() {
    local d=$out/$1 h=$out/$1-heldout
    mkdir -p "$h"
    [ -f "$h/plan.txt" ] || "$tmp/peakfit" calc "$d-auto" --budget "${PLAN[$1]}" --technique full \
        --seq-len "${SEQ[$1]}" >"$h/plan.txt" || true
    [ -f "$h/held.sweep" ] || points_sweep "$1" full held $(held_points "$1" "$d-auto") >"$h/held.sweep"
    run_points run "$h/held.sweep" "$h/measured"
    cp "$d-auto/auto.sweep" "$d-auto/peaks.csv" "$h/"
    rows_as "$h/measured/peaks.csv" 1 | in_sweep "$h/held.sweep" >>"$h/peaks.csv"
    "$tmp/peakfit" fit "$h" >"$h/fit.txt"
    "$tmp/peakfit" report "$h" >/dev/null 2>&1 || true
}

# The dense grid: auto's points, the held-out points as fitted ones, and
# DENSE's points, measured into DIR/measured; `peakfit fit` gives its A.
dense_stage() {
    local d=$out/$1 g=$out/$1-dense spec
    mkdir -p "$g"
    for spec in ${DENSE[$1]}; do
        [ -f "$g/${spec%%:*}.sweep" ] ||
            points_sweep "$1" "${spec%%:*}" "dense-${spec%%:*}" $(echo "${spec#*:}" | tr , '\n' | sed "s/\$/x${SEQ[$1]}/") \
                >"$g/${spec%%:*}.sweep"
        run_points run "$g/${spec%%:*}.sweep" "$g/measured-${spec%%:*}"
    done
    cp "$d-auto/peaks.csv" "$g/"
    for f in "$d-heldout/measured/peaks.csv" "$g"/measured-*/peaks.csv; do
        [ -f "$f" ] && rows_as "$f" 0 >>"$g/peaks.csv"
    done
    "$tmp/peakfit" fit "$g" >"$g/fit.txt"
}

# SmolLM2's held-out points measured for #18 (bench/smollm2-heldout.sh, into
# bench/results/smollm2-135m-cpu-heldout/measured, an earlier run) predicted
# from the auto sweep's points instead of the dense grid's: no measurement.
# The heldout stage measures the same points again beside auto's.
rescore_stage() {
    local h=$out/$1-rescore src=bench/results/smollm2-135m-cpu-heldout/measured/peaks.csv
    mkdir -p "$h"
    cp "$out/$1-auto/auto.sweep" "$out/$1-auto/peaks.csv" "$h/"
    rows_as "$src" 1 >>"$h/peaks.csv"
    "$tmp/peakfit" fit "$h" >"$h/fit.txt"
    "$tmp/peakfit" report "$h" >/dev/null 2>&1 || true
}

# SmolLM2's two auto sweeps, s = 256 (smollm2-auto) and s = 128 (smollm2-128-auto),
# fitted as one set: the heap's gap gets its per-sample term (fit/group_gap.c);
# the held-out points of both heldout stages predicted from it (those on
# either auto grid are not held out). No measurement.
both_stage() {
    local h=$out/$1-both
    mkdir -p "$h"
    bench/peaks-combine.py "$h/peaks.csv" "$out/$1-auto/peaks.csv" "$out/$1-128-auto/peaks.csv" -- \
        "$out/$1-heldout/measured/peaks.csv" "$out/$1-128-heldout/measured/peaks.csv" >"$h/combine.txt"
    "$tmp/peakfit" fit "$h" >"$h/fit.txt"
    "$tmp/peakfit" report "$h" >/dev/null 2>&1 || true
    # the same with s = 128's points up to b = 9 only (auto's first past the
    # heap's transition; before b = 18 and 29): 30x128 then lies 3x past them
    mkdir -p "$h-b9"
    awk -F, 'NR == 1 || $6 <= 9' "$out/$1-128-auto/peaks.csv" >"$h-b9/auto-128-b9.csv"
    bench/peaks-combine.py "$h-b9/peaks.csv" "$out/$1-auto/peaks.csv" "$h-b9/auto-128-b9.csv" -- \
        "$out/$1-heldout/measured/peaks.csv" "$out/$1-128-heldout/measured/peaks.csv" >"$h-b9/combine.txt"
    "$tmp/peakfit" fit "$h-b9" >"$h-b9/fit.txt"
}

# smollm2-2s: the held-out points of both SmolLM2 heldout stages predicted
# from the two-seq_len auto sweep (those on its grid are not held out).
twos_stage() {
    local h=$out/$1-heldout
    mkdir -p "$h"
    bench/peaks-combine.py "$h/peaks.csv" "$out/$1-auto/peaks.csv" -- "$out/smollm2-heldout/measured/peaks.csv" \
        "$out/smollm2-128-heldout/measured/peaks.csv" >"$h/combine.txt"
    "$tmp/peakfit" fit "$h" >"$h/fit.txt"
}

# smollm2-heldout's point outside its RSS interval (b30 s128) measured twice
# more, to see RSS's run-to-run spread there (smollm2-repeat/repeat.sweep).
repeat_stage() {
    local r=$out/$1-repeat
    mkdir -p "$r"
    [ -f "$r/repeat.sweep" ] || cp bench/results/auto-sweep/smollm2-repeat/repeat.sweep "$r/"
    stage run "$r" pf run "$r/repeat.sweep" -o "$r"
}

budget_stage() {
    local d=$out/$1 b
    stage budget "$d-budget" pf auto "${MODEL[$1]}" --technique full --seq-len "${SEQ[$1]}" --threads 2 \
        --budget "${BUDGET[$1]}" --mem-limit "${BIG[$1]}" --point-timeout 30m -o "$d-budget"
    # The check: the next size up from the largest found, measured after the search.
    b=$(sed -n 's/.*the largest micro-batch within .*: b = \([0-9]*\) .*/\1/p' "$d-budget/budget.txt" | tail -1)
    if [ -n "$b" ] && [ -z "${NOCHECK:-}" ]; then
        sed "s/^batch = .*/batch = $((b + 1))/" "$d-budget/auto.sweep" >"$d-budget/check.sweep"
        stage check "$d-budget/check" pf run "$d-budget/check.sweep" -o "$d-budget/check"
    fi
}

# all: every directory here, in the order they were measured (each later
# stage reads the earlier ones'), then the summary and the 24 GiB plan.
ALL=("smollm2 auto heldout repeat budget rescore" "smollm2-128 auto heldout budget" "qwen auto heldout dense budget"
    "smollm2-2s auto twos" "smollm2 both")
if [ "${1:-}" = all ]; then
    for run in "${ALL[@]}"; do
        # shellcheck disable=SC2086 # a model and its stages
        "$0" $run
    done
    OUT=$out/summary.txt bench/auto-sweep-summary.py "$tmp/peakfit" >/dev/null
    OUT=$out/plan24.txt PEAKFIT=$tmp/peakfit bench/plan24.sh >/dev/null
    exit
fi
key=$1
shift
[ -n "${MODEL[$key]:-}" ] || { echo "usage: $0 all | smollm2|smollm2-128|smollm2-2s|qwen [auto] [heldout] [dense] [budget] [rescore] [both] [twos] [repeat]" >&2; exit 2; }
tidy() { PEAKFIT=$tmp/peakfit bench/peaks-tidy.py "$out"; }
for st in "${@:-auto heldout dense budget}"; do
    for s in $st; do tidy; "${s}_stage" "$key"; done
done
tidy
