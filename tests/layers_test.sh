# The layers point one way: each folder includes only folders below it in
# LAYERS, no two files include each other (directly or round a circle; a
# file and its header are one node), and peakfit's own sources never reach
# shim/peakfit_torch.h, the libtorch ABI: only peakfit-worker's
# (runner/worker.c, src/worker_main.c) and the shim's do.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
# Lowest first; a folder may include its own files and those of folders
# before it.
LAYERS="util core shim models sweeps fit runner autosweep plots reports src"
rank() { local i=0; for l in $LAYERS; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
sources=$(git ls-files 'util/*' 'core/*' 'models/*' 'sweeps/*' 'fit/*' 'runner/*' 'autosweep/*' 'plots/*' \
    'reports/*' 'shim/*' 'src/*' | grep -E '\.(c|h|cpp|hpp)$')
edges=$TMP/edges
for f in $sources; do
    dir=${f%%/*}
    grep -o '^#include "[^"]*"' "$f" | sed 's/^#include "//; s/"$//' | while read -r inc; do
        [ "${inc#*/}" = "$inc" ] && inc=$dir/$inc # the shim's own includes name no folder
        echo "${f%.*} ${inc%.*}"
    done
done | awk '$1 != $2' | sort -u >"$edges"
[ -s "$edges" ] || fail "no includes found: is this the source tree?"
while read -r from to; do
    a=$(rank "${from%%/*}") b=$(rank "${to%%/*}")
    [ "$a" -ge 0 ] && [ "$b" -ge 0 ] || fail "$from includes $to: a folder missing from LAYERS"
    [ "$b" -le "$a" ] || fail "$from includes $to: an arrow back up (LAYERS: $LAYERS)"
done <"$edges"
loop=$(tsort <"$edges" 2>&1 >/dev/null | grep -v '^tsort: -: input contains a loop:$' | sed 's/^tsort: //' | tr '\n' ' ')
[ -z "$loop" ] || fail "a circle of includes: $loop"
# What each of peakfit's own objects includes, as the compiler sees it.
for f in $(git ls-files 'util/*.c' 'core/*.c' 'models/*.c' 'sweeps/*.c' 'fit/*.c' 'runner/*.c' 'autosweep/*.c' \
    'plots/*.c' 'reports/*.c' 'src/*.c'); do
    case $f in runner/worker.c|src/worker_main.c) continue ;; esac
    cc -std=c11 -D_GNU_SOURCE -I. -Ishim -MM "$f" | grep -q 'peakfit_torch\.h' &&
        fail "$f reaches shim/peakfit_torch.h: peakfit links no libtorch, so none of its files may include it"
done
echo "layers_test: $(wc -l <"$edges") includes, each pointing down"
