#!/usr/bin/env bash
# bench/research/heap-splice.sh: the main thread's malloc calls of a whole training step,
# logged in the Python process and in peakfit's worker (heap-modes.sh's logall rows), replayed
# in a bare process (bench/research/heap_replay.c, each block written when made), whole
# and spliced at the forward's first activation: does the sequence alone give each side's
# RSS, and which part of it decides? (#19, README 9)
#
#   [LOCK=FILE] [COMBOS="PRE:STEP ..."] bench/research/heap-splice.sh PY_LOG WORKER_LOG > OUT
#
# The splice point of each log: its first "a 64 4718592" line (memalign of the first
# [8, 256, 576] fp32 activation, the embedding's output). Each row replays PRE's calls up to
# its splice point, then STEP's from its splice point on. PRE:
#   py, wk       the Python process's, the worker's
#   pylive, wklive  only the calls that made the blocks still live at the splice point (a
#                realloc'd block as one malloc of its last size): none of the freed blocks
# STEP:
#   py, wk       as logged
#   wknonode     the worker's without its counting allocator's map nodes
#                (shim/counting_allocator.cpp: malloc(24) right after each tensor's memalign)
#                nor their frees
#   pynode       the Python process's with such a node added to each memalign (freed right
#                before the tensor, as delete_counted does; fake keys from 0xf00000000000)
#   pybig-N, wkbig-N  only the requests of N bytes or more, and their frees
#   pyno-LO-HI   the Python process's without its mallocs of LO to HI-1 bytes nor their frees
# Columns: the row, lines replayed, VmRSS at the splice point and VmHWM (KiB, from
# heap_replay.so: both include the log's and the block table's mappings, the same in every
# row), and hwm - rss_at_splice in MiB: the step's peak above its start.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=$1 WK=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -shared -fPIC -o "$TMP/heap_replay.so" "$ROOT/bench/research/heap_replay.c"
source "$ROOT/bench/transformers/side_lib.sh"
mark() { grep -n -m1 '^a 64 4718592 ' "$1" | cut -d: -f1; }
py_k=$(($(mark "$PY") - 1)) wk_k=$(($(mark "$WK") - 1))
head -n "$py_k" "$PY" >"$TMP/py.pre"; tail -n +"$((py_k + 1))" "$PY" >"$TMP/py.step"
head -n "$wk_k" "$WK" >"$TMP/wk.pre"; tail -n +"$((wk_k + 1))" "$WK" >"$TMP/wk.step"

# live_only LOG: LOG's calls for the blocks still live at its end only, in order
live_only() {
    awk '{ op = $1; if (op == "f") { dead[cur[$2]] = 1; delete cur[$2]; next }
           if (op == "r" && $2 != "0") { dead[cur[$2]] = 1; delete cur[$2] }
           key = (op == "m" || op == "c") ? $3 : $4; line[NR] = $0; cur[key] = NR
           size[NR] = (op == "a" || op == "r") ? $3 : $2; kind[NR] = op }
         END { for (i = 1; i <= NR; i++) if (i in line && !(i in dead)) {
                   split(line[i], f, " ")
                   if (kind[i] == "r") print "m", size[i], f[4]; else print line[i] } }' "$1"
}

# drop_sizes LO HI: stdin with the calls (and their frees) of blocks of LO to HI-1 bytes dropped
drop_sizes() {
    awk -v lo="$1" -v hi="$2" '$1 == "f" { if ($2 in gone) delete gone[$2]; else print; next }
        { size = ($1 == "a" || $1 == "r") ? $3 : $2; key = ($1 == "m" || $1 == "c") ? $3 : $4 }
        $1 == "r" && ($2 in gone) { delete gone[$2]; if (size >= lo && size < hi) gone[key] = 1; else print "m", size, key; next }
        $1 == "r" { if (size >= lo && size < hi) { gone[key] = 1; print "f", $2 } else print; next }
        size >= lo && size < hi { gone[key] = 1; next } { print }'
}

# make_part NAME: $TMP/NAME (a PRE's .pre or a STEP's .step), made on first use
make_part() {
    local f=$TMP/$1
    [ -f "$f" ] && return
    case $1 in
    pylive.pre | wklive.pre) live_only "$TMP/${1%live.pre}.pre" >"$f" ;;
    wknonode.step) awk 'prev ~ /^a 64 / && $1 == "m" && $2 == 24 { node[$3] = 1; prev = $0; next }
            $1 == "f" && ($2 in node) { delete node[$2]; prev = $0; next } { print; prev = $0 }' "$TMP/wk.step" >"$f" ;;
    pynode.step) awk '{ if ($1 == "f" && ($2 in node)) { print "f", node[$2]; delete node[$2] } print }
            $1 == "a" && $2 == 64 { node[$4] = sprintf("0x%x", 263882790666240 + NR); print "m 24", node[$4] }' \
            "$TMP/py.step" >"$f" ;;
    pybig-*.step | wkbig-*.step) local n=${1#*big-}; n=${n%.step}
        drop_sizes 0 "$n" <"$TMP/${1:0:2}.step" >"$f" ;;
    pyno-*.step) local r=${1#pyno-}; r=${r%.step}
        drop_sizes "${r%-*}" "${r#*-}" <"$TMP/py.step" >"$f" ;;
    *) echo "heap-splice.sh: no part $1" >&2; exit 2 ;;
    esac
}

printf '# python log %s lines (splice at %s), worker log %s lines (splice at %s)\n' \
    "$(wc -l <"$PY")" "$py_k" "$(wc -l <"$WK")" "$wk_k"
printf '%-26s %9s %14s %9s %9s\n' replayed lines rss_at_splice hwm_kib step_mib
for run in ${COMBOS:-py:py wk:wk py:wk wk:py}; do
    pre=${run%%:*} step=${run#*:}
    make_part "$pre.pre"; make_part "$step.step"
    cat "$TMP/$pre.pre" "$TMP/$step.step" >"$TMP/log"
    n=$(wc -l <"$TMP/$pre.pre")
    out=$(locked env HEAP_REPLAY="$TMP/log" HEAP_REPLAY_TOUCH=1 HEAP_REPLAY_MARK="$n" \
        LD_PRELOAD="$TMP/heap_replay.so" /bin/true 2>&1 | grep '^heap_replay:')
    read -r _ _ lines _ rss _ hwm <<<"$out"
    printf '%-26s %9s %14s %9s %9.1f\n' "$pre-pre+$step-step" "$lines" "$rss" "$hwm" "$(echo "($hwm - $rss) / 1024" | bc -l)"
done
