# The layers point one way: each folder includes only folders below it in
# LAYERS, no two files include each other (directly or round a circle; a
# file and its header are one node), and peakfit's own sources never reach
# shim/peakfit_torch.h, the libtorch ABI: only peakfit-worker's
# (worker/worker.c, src/worker_main.c) and the shim's do.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
# Lowest first; a folder may include its own files and those of folders
# before it (docs/layout.md says what each one holds).
LAYERS="util core shim models sweeps point fit proc store worker runner autosweep plots reports src"
rank() { local i=0; for l in $LAYERS; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
# Every source outside tests/, bench/ and examples/: a new folder that
# LAYERS leaves out fails below instead of going unchecked.
sources=$(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' | grep -Ev '^(tests|bench|examples)/')
for f in $sources; do
    [ "$(rank "${f%%/*}")" -ge 0 ] || fail "$f: its folder ${f%%/*} is missing from LAYERS"
done
# .gitignore names only output: a source file new in any layer's folder
# (or a tracked file anywhere) must not be ignored, or commits leave it out.
for l in $LAYERS; do
    ! git check-ignore -q --no-index "$l/new_file.c" || fail "$l/: .gitignore ignores new source files in it"
done
ignored=$(git ls-files -ci --exclude-standard)
[ -z "$ignored" ] || fail ".gitignore matches tracked files: $ignored"
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
for f in $(echo "$sources" | grep -E '\.c$'); do
    case $f in worker/worker.c|src/worker_main.c) continue ;; esac
    deps=$(cc -std=c11 -D_GNU_SOURCE -I. -Ishim -MM "$f") || fail "$f: its includes cannot be followed (above)"
    echo "$deps" | grep -q 'peakfit_torch\.h' &&
        fail "$f reaches shim/peakfit_torch.h: peakfit links no libtorch, so none of its files may include it"
done
# docs/layout.md draws the same order: its order line is LAYERS and its
# table has a row for each folder in it, in that order.
doc=docs/layout.md
expect_eq "docs/layout.md's order line" "$(grep -m1 -x '`[a-z ]*`' "$doc" | tr -d '`')" "$LAYERS"
expect_eq "docs/layout.md's table of folders" \
    "$(sed -n 's/^| `\([a-z]*\)\/` |.*/\1/p' "$doc" | grep -xF "$(tr ' ' '\n' <<<"$LAYERS")" | tr '\n' ' ')" "$LAYERS "
echo "layers_test: $(wc -l <"$edges") includes, each pointing down"
