#!/usr/bin/env bash
# bench/transformers/heap-splice.sh: the main thread's malloc calls of a whole training step,
# logged in the Python process and in peakfit's worker (heap-modes.sh's logall rows), replayed
# in a bare process (bench/transformers/heap_replay.c, each block written when made), whole
# and spliced at the forward's first activation: does the sequence alone give each side's
# RSS, and is it the part before the forward or the step's own that decides? (#19, README 9)
#
#   LOCK=/work/team/bigmem.lock bench/transformers/heap-splice.sh PY_LOG WORKER_LOG > OUT
#
# The splice point of each log: its first "a 64 4718592" line (memalign of the first
# [8, 256, 576] fp32 activation, the embedding's output). Rows: the replayed sequence
# (py = the Python process's, wk = the worker's; PRE-pre+STEP-step: PRE's calls up to its
# splice point, then STEP's from its splice point on; pylive, wklive: only the calls that
# made the blocks live at the splice point, none of the freed ones; wknonode: the worker's
# step without its map nodes, below; COMBOS="PRE:STEP ..."),
# its lines, VmRSS at the splice point and VmHWM (KiB, from heap_replay.so), and
# hwm - rss_at_splice in MiB (the step's peak above its start, what the two sides differ in).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=$1 WK=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -shared -fPIC -o "$TMP/heap_replay.so" "$ROOT/bench/transformers/heap_replay.c"
locked() { if [ -n "${LOCK:-}" ]; then flock "$LOCK" "$@"; else "$@"; fi; }
mark() { grep -n -m1 '^a 64 4718592 ' "$1" | cut -d: -f1; }
py_k=$(($(mark "$PY") - 1)) wk_k=$(($(mark "$WK") - 1))
head -n "$py_k" "$PY" >"$TMP/py.pre"; tail -n +"$((py_k + 1))" "$PY" >"$TMP/py.step"
head -n "$wk_k" "$WK" >"$TMP/wk.pre"; tail -n +"$((wk_k + 1))" "$WK" >"$TMP/wk.step"
# live_only PRE: PRE's calls for the blocks still live at the splice point only, in order
# (a realloc'd block as one malloc of its last size): its live blocks without its frees
live_only() {
    awk '{ op = $1; if (op == "f") { dead[cur[$2]] = 1; delete cur[$2]; next }
           if (op == "r" && $2 != "0") { dead[cur[$2]] = 1; delete cur[$2] }
           key = (op == "m" || op == "c") ? $3 : $4; line[NR] = $0; cur[key] = NR
           size[NR] = (op == "a" || op == "r") ? $3 : $2; kind[NR] = op }
         END { for (i = 1; i <= NR; i++) if (i in line && !(i in dead)) {
                   split(line[i], f, " ")
                   if (kind[i] == "r") print "m", size[i], f[4]; else print line[i] } }' "$1"
}
# the worker's step without its counting allocator's map nodes (shim/counting_allocator.cpp:
# one std::unordered_map node, malloc(24), right after each tensor's memalign) nor their frees
awk 'prev ~ /^a 64 / && $1 == "m" && $2 == 24 { node[$3] = 1; prev = $0; next }
     $1 == "f" && ($2 in node) { delete node[$2]; prev = $0; next } { print; prev = $0 }' \
    "$TMP/wk.step" >"$TMP/wknonode.step"
live_only "$TMP/py.pre" >"$TMP/pylive.pre"
live_only "$TMP/wk.pre" >"$TMP/wklive.pre"
printf '# python log %s lines (splice at %s), worker log %s lines (splice at %s)\n' \
    "$(wc -l <"$PY")" "$py_k" "$(wc -l <"$WK")" "$wk_k"
printf '%-24s %9s %14s %9s %9s\n' replayed lines rss_at_splice hwm_kib step_mib
for run in ${COMBOS:-py:py wk:wk py:wk wk:py pylive:py pylive:wk wklive:wk}; do
    run=${run/:/ }
    read -r pre step <<<"$run"
    cat "$TMP/$pre.pre" "$TMP/$step.step" >"$TMP/log"
    n=$(wc -l <"$TMP/$pre.pre")
    out=$(locked env HEAP_REPLAY="$TMP/log" HEAP_REPLAY_TOUCH=1 HEAP_REPLAY_MARK="$n" \
        LD_PRELOAD="$TMP/heap_replay.so" /bin/true 2>&1 | grep '^heap_replay:')
    read -r _ _ lines _ rss _ hwm <<<"$out"
    printf '%-24s %9s %14s %9s %9.1f\n' "$pre-pre+$step-step" "$lines" "$rss" "$hwm" "$(echo "($hwm - $rss) / 1024" | bc -l)"
done
