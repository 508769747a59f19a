# The layers point one way: each folder includes and calls only folders
# below it in the order tests/tools/layout-graph.sh gives (layers), no two
# files include or call each other (directly or round a circle; a file and
# its header are one node), and peakfit's own sources never reach
# shim/peakfit_torch.h, the libtorch ABI: only peakfit-worker's
# (worker/worker.c, src/worker_main.c) and the shim's do. The calls are
# read from the objects of the build under test (PEAKFIT_BUILD, default
# build).
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
graph=tests/tools/layout-graph.sh
# Lowest first; a folder may include its own files and those of folders
# before it (docs/layout.md says what each one holds).
LAYERS=$($graph layers)
rank() { local i=0; for l in $LAYERS; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
# Every source outside tests/, bench/ and examples/: a new folder that
# LAYERS leaves out fails below instead of going unchecked.
sources=$($graph sources)
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
edges=$TMP/edges calls=$TMP/calls
$graph includes >"$edges"
$graph calls "${PEAKFIT_BUILD:-build}" >"$calls" || fail "the calls between files cannot be read (above)"
[ -s "$edges" ] || fail "no includes found: is this the source tree?"
[ -s "$calls" ] || fail "no calls found between the objects in ${PEAKFIT_BUILD:-build}"
# one_way WHAT EDGES: each "FROM WHAT TO" points down the layers or stays
# in its folder, and no files WHAT each other round a circle.
one_way() {
    local from to a b loop
    while read -r from to; do
        a=$(rank "${from%%/*}") b=$(rank "${to%%/*}")
        [ "$a" -ge 0 ] && [ "$b" -ge 0 ] || fail "$from $1 $to: a folder missing from LAYERS"
        [ "$b" -le "$a" ] || fail "$from $1 $to: an arrow back up (LAYERS: $LAYERS)"
    done <"$2"
    loop=$(tsort <"$2" 2>&1 >/dev/null | grep -v '^tsort: -: input contains a loop:$' | sed 's/^tsort: //' | tr '\n' ' ')
    [ -z "$loop" ] || fail "a circle of $1: $loop"
}
one_way includes "$edges"
one_way calls "$calls"
# What each of peakfit's own objects includes, as the compiler sees it
# (-MG: a header the build generates, process_term_rows.h from a bench
# result, is not in the tree and includes nothing).
for f in $(echo "$sources" | grep -E '\.c$'); do
    case $f in worker/worker.c|src/worker_main.c) continue ;; esac
    deps=$(cc -std=c11 -D_GNU_SOURCE -I. -Ishim -MM -MG "$f") || fail "$f: its includes cannot be followed (above)"
    echo "$deps" | grep -q 'peakfit_torch\.h' &&
        fail "$f reaches shim/peakfit_torch.h: peakfit links no libtorch, so none of its files may include it"
done
# docs/layout.md draws the same order: its order line is LAYERS, its
# table of folders has a row for each folder in it, in that order, and its
# table of includes is what layout-graph.sh reads from the code (make docs
# writes it).
doc=docs/layout.md
expect_eq "docs/layout.md's order line" "$(grep -m1 -x '`[a-z ]*`' "$doc" | tr -d '`')" "$LAYERS"
expect_eq "docs/layout.md's table of folders" \
    "$(awk '/^\| folder \| what \|$/ { t = 1; next } t && !/^\|/ { t = 0 } t' "$doc" |
        sed -n 's/^| `\([a-z]*\)\/` |.*/\1/p' | grep -xF "$(tr ' ' '\n' <<<"$LAYERS")" | tr '\n' ' ')" "$LAYERS "
$graph table | tests/tools/doc-splice.sh "$doc" "$TMP/layout.md" || fail "layout-graph.sh table | doc-splice.sh failed"
diff -u "$doc" "$TMP/layout.md" >"$TMP/diff" ||
    fail "docs/layout.md's table of includes is not what the code includes (run make docs):
$(head -40 "$TMP/diff")"
echo "layers_test: $(wc -l <"$edges") includes and $(wc -l <"$calls") calls between files, each pointing down"
