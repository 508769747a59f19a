#!/usr/bin/env bash
# bench/gpu/oom-trace.sh VERIFY_DIR [BATCH]: where a worker's failure past
# the memory limit comes from, on a GPU machine with cuda-gdb. Runs the
# point of VERIFY_DIR/verify.sweep (peakfit verify's plan) at BATCH (default:
# the sweep's second batch, the next size up) under cuda-gdb, stopping at
# each C++ throw with a backtrace: first the caching allocator's
# OutOfMemoryError, then whatever the worker reports instead of it.
# Writes the trace to stdout; bounded by PF_TRACE_S seconds (120).
set -u
dir=${1:?usage: bench/gpu/oom-trace.sh VERIFY_DIR [BATCH]}
sweep=$dir/verify.sweep
get() { sed -n "s/^$1 = //p" "$sweep" | head -n 1; }
batch=${2:-$(get batch | tr -d ' ' | cut -d, -f2)}
gdb=$(command -v cuda-gdb || echo /usr/local/cuda/bin/cuda-gdb)
[ -x "$gdb" ] || { echo "oom-trace: no cuda-gdb"; exit 1; }
args=(--model "$(get model)" --device "$(get device)" --technique "$(get technique)" --attention "$(get attention)"
      --batch "$batch" --seq-len "$(get seq_len)" --steps "$(get steps)" --warm "$(get warm)" --seed "$(get seed)"
      --mem-limit "$(get mem_limit)")
echo "oom-trace: bin/peakfit-worker ${args[*]}"
cmds=(-ex 'set pagination off' -ex 'set print thread-events off' -ex 'catch throw' -ex run)
for _ in 1 2 3 4 5 6; do cmds+=(-ex 'bt 30' -ex continue); done
timeout "${PF_TRACE_S:-120}" "$gdb" -batch "${cmds[@]}" --args bin/peakfit-worker "${args[@]}" 2>&1 |
    grep -v '^\[New Thread\|^\[Thread .* exited\|^\[Detaching'
