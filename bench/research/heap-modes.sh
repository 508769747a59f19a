#!/usr/bin/env bash
# bench/research/heap-modes.sh: peak RSS above baseline of train_step.py and of peakfit's
# worker at one point under null perturbations: changes that leave the training the same
# and move only what the process allocates before its baseline (#19, README 9).
#
#   [LOCK=FILE] bench/research/heap-modes.sh > OUT
#
# Each row of RUNS below is one fresh process: SIDE|LABEL|ARGV|ENV|PRELOAD.
#   SIDE    python (examples/transformers/train_step.py) or worker ($WORKER)
#   ARGV    measure: measure.py's command line (--steps 1 --warm 1 --seed 0 --device cpu
#           spelt out; the worker: as `peakfit run` starts it); short: train_step.py with only
#           --config --technique --batch --seq-len --attention --threads; reorder: the same
#           flags as measure in another order; importtime: python -X importtime with measure's;
#           preimport: bench/research/py_preimport.py json,decimal,email.message first
#   ENV     VAR=VALUE ... added to the environment; PAD=N: one variable of N bytes (PF_PAD)
#   PRELOAD frag:N:S: bench/research/heap_prefragment.c (N blocks of S bytes, every other
#           one freed, at load); replay:FILE: bench/research/heap_replay.c replaying FILE;
#           notrace: without rss_trace.so (every other run is under it)
# Columns: side, label, baseline RSS (MiB), RSS peak above baseline (MiB, VmHWM), the live
# malloc peak above baseline (rss_trace.so's mallinfo2 uordblks + hblkhd every 5 ms: its
# largest value less its value at the last sample before it at or below the baseline RSS; MiB) and
# the worker's counting allocator's peak above baseline (tensor_mib; the python side's
# needs PyTorch's profiler, which changes its heap: 5317.6 MiB, README 9).
#   WORKER=build-torch2/bin/peakfit-worker PYTHON=.venv/bin/python POINT=8x256
#   ONLY=REGEX (the rows whose SIDE|LABEL matches)  LOCK=FILE (each run under flock FILE)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
WORKER=${WORKER:-build-torch2/bin/peakfit-worker}
PYTHON=${PYTHON:-.venv/bin/python}
POINT=${POINT:-8x256}
B=${POINT%x*} S=${POINT#*x}
CONFIG=$ROOT/bench/transformers/configs/smollm2-135m.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -shared -fPIC -o "$TMP/rss_trace.so" bench/research/rss_trace.c -lpthread
cc -O2 -shared -fPIC -o "$TMP/heap_prefragment.so" bench/research/heap_prefragment.c
cc -O2 -shared -fPIC -o "$TMP/heap_log.so" bench/research/heap_log.c
cc -O2 -shared -fPIC -o "$TMP/heap_replay.so" bench/research/heap_replay.c
HEAP_LOG_FILE=${HEAP_LOG_FILE:-$TMP/python-heap.log}
export HF_HUB_OFFLINE=1

RUNS=${RUNS:-"python|measure|measure||
python|measure-notrace|measure||notrace
python|short|short||
python|reorder|reorder||
python|hashseed-1|measure|PYTHONHASHSEED=1|
python|hashseed-4242|measure|PYTHONHASHSEED=4242|
python|pad-4096|measure|PAD=4096|
python|pad-100000|measure|PAD=100000|
python|frag-3000x112|measure||frag:3000:112
python|frag-300x4096|measure||frag:300:4096
python|frag-64x65536|measure||frag:64:65536
python|importtime|importtime||
python|preimport|preimport||
worker|measure|measure||
worker|measure-notrace|measure||notrace
worker|reorder|reorder||
worker|pad-4096|measure|PAD=4096|
worker|pad-100000|measure|PAD=100000|
worker|frag-400x100000|measure||frag:400:100000
python|heap-log|measure||log
worker|replay|measure||replay"}

source "$ROOT/bench/transformers/side_lib.sh"

# argv SIDE ARGV: the command line
argv() {
    local ts="examples/transformers/train_step.py" c="$CONFIG" m
    m=$(side_argv python "$B" "$S")
    m=${m#"$PYTHON $ts "} # measure's flags
    case $1:$2 in
    worker:measure) side_argv worker "$B" "$S" ;;
    worker:reorder) echo "$WORKER --seed 0 --steps 1 --warm 1 --threads 2 --seq-len $S --batch $B --technique full --model $c" ;;
    python:measure) side_argv python "$B" "$S" ;;
    python:short) side_argv short "$B" "$S" ;;
    python:reorder) echo "$PYTHON $ts --threads 2 --device cpu --seed 0 --warm 1 --steps 1 --attention sdpa --seq-len $S --batch $B --technique full --config $c" ;;
    python:importtime) echo "$PYTHON -X importtime $ts $m" ;;
    python:preimport) echo "$PYTHON bench/research/py_preimport.py json,decimal,email.message $ts $m" ;;
    *) echo "heap-modes.sh: no argv $2 for $1" >&2; return 1 ;;
    esac
}

# run SIDE ARGV ENV PRELOAD: one fresh process; its report in $TMP/report, its trace in $TMP/t.*
run() {
    local env=(PEAKFIT_TENSOR_PEAK=0) pre=() cmd kv
    read -r -a cmd <<<"$(argv "$1" "$2")"
    for kv in $3; do
        case $kv in
        PAD=*) env+=(PF_PAD="$(head -c "${kv#PAD=}" /dev/zero | tr '\0' x)") ;;
        *) env+=("$kv") ;;
        esac
    done
    local tok
    for tok in ${4//,/ }; do
        case $tok in
        frag:*) IFS=: read -r _ n s <<<"$tok"; env+=(FRAG_N="$n" FRAG_SIZE="$s"); pre+=("$TMP/heap_prefragment.so") ;;
        log) env+=(HEAP_LOG="$HEAP_LOG_FILE"); pre+=("$TMP/heap_log.so") ;;
        logall:*) env+=(HEAP_LOG="$HEAP_LOG_FILE.${tok#logall:}" HEAP_LOG_STOP=999999999999); pre+=("$TMP/heap_log.so") ;;
        logfwd) env+=(HEAP_LOG="$HEAP_LOG_FILE" HEAP_LOG_STOP=4718592 HEAP_LOG_STOP_MAX=67108864); pre+=("$TMP/heap_log.so") ;;
        replay) env+=(HEAP_REPLAY="$HEAP_LOG_FILE"); pre+=("$TMP/heap_replay.so") ;;
        replay:*) env+=(HEAP_REPLAY="$HEAP_LOG_FILE" HEAP_REPLAY_LINES="${tok#replay:}"); pre+=("$TMP/heap_replay.so") ;;
        esac
    done
    [[ ",$4," == *,notrace,* ]] || { env+=(RSS_TRACE="$TMP/t"); pre+=("$TMP/rss_trace.so"); }
    [ ${#pre[@]} -eq 0 ] || env+=(LD_PRELOAD="$(IFS=:; echo "${pre[*]}")")
    rm -f "$TMP"/t.*
    start_side "$1" "${env[@]}" -- "${cmd[@]}"
}

# live BASE_KIB: the live malloc peak above its value at the baseline (MiB), from the largest
# trace (the measured process's: a child it starts writes its own)
live() {
    local t
    t=$(ls -S "$TMP"/t.* 2>/dev/null | grep -E '/t\.[0-9]+$' | head -1 || true)
    [ -n "$t" ] || { echo -; return; }
    awk -v base="$1" '{ rss[NR] = $2; v[NR] = $5 + $4; if (v[NR] > hi) { hi = v[NR]; top = NR } }
        END { for (i = top; i > 1 && rss[i] > base; i--); printf "%.1f\n", (hi - v[i]) / 1024 }' "$t"
}

printf '# point %s, %s\n' "$POINT" "$(date -u +%FT%TZ)"
printf '%-7s %-22s %9s %9s %9s %10s\n' side label base_mib rss_mib live_mib tensor_mib
while IFS='|' read -r side label av envs pre; do
    [ -n "$side" ] || continue
    [[ "$side|$label" =~ ${ONLY:-.} ]] || continue
    if ! run "$side" "$av" "$envs" "$pre"; then
        echo "$side $label: failed: $(tail -1 "$TMP/err")"
        continue
    fi
    read -r base peak tensor < <(report_figures)
    l=-; [[ ",$pre," == *,notrace,* ]] || l=$(live "$base")
    printf '%-7s %-22s %9.1f %9.1f %9s %10s\n' "$side" "$label" "$(echo "$base / 1024" | bc -l)" \
        "$(echo "($peak - $base) / 1024" | bc -l)" "$l" "$tensor"
done <<<"$RUNS"
