#!/usr/bin/env bash
# layout-graph.sh WHAT: the import structure of peakfit's sources, read from
# the code (run from the repository root). tests/layers_test.sh checks it;
# make docs writes its table into docs/layout.md.
#   layers        the folders in layer order, lowest first: each may use
#                 only its own files and those of folders before it
#   sources       peakfit's own source files (all but tests/, bench/, examples/)
#   includes      "FROM TO" for each file that includes another (a file and
#                 its header are one node: the path without its extension)
#   calls BUILD   "FROM TO" for each file whose object in BUILD uses a
#                 function or variable that TO's object defines (nm)
#   table         the folders each folder includes, as docs/layout.md's table
set -u
LAYERS="util core shim models settings sweeps point protocol fit proc store worker runner autosweep plots reports verify src"

sources() { git ls-files '*.c' '*.h' '*.cpp' '*.hpp' | grep -Ev '^(tests|bench|examples)/'; }

includes() {
    local f dir inc
    for f in $(sources); do
        dir=${f%%/*}
        grep -o '^#include "[^"]*"' "$f" | sed 's/^#include "//; s/"$//' | while read -r inc; do
            [ "${inc#*/}" = "$inc" ] && inc=$dir/$inc # the shim's own includes name no folder
            echo "${f%.*} ${inc%.*}"
        done
    done | awk '$1 != $2' | sort -u
}

# From the objects: C files' in BUILD, the shim's in BUILD or, where a
# build links the default build's shim (make test-asan), in build. Only
# strong definitions count: a C++ object also holds weak copies of the
# templates and inline functions of every header it includes.
calls() {
    local build=$1 objects=() f o
    for f in $(sources | grep -E '\.(c|cpp)$'); do
        o=$build/${f%.*}.o
        [ -e "$o" ] || [ "${f##*.}" != cpp ] || o=build/${f%.*}.o
        # The process layer's half for the other system is not compiled
        # here (the Makefile builds proc/platform_$PF_OS.c): its includes
        # are still read, its calls cannot be.
        case $f in proc/platform_*.c) [ -e "$o" ] || continue ;; esac
        [ -e "$o" ] || { echo "layout-graph.sh: $o is missing: build first (make)" >&2; exit 2; }
        objects+=("$o")
    done
    # "build/fit/ols.o:0000000000000040 T ols_fit" -> "ols_fit fit/ols"
    local strip="s|^$build/||; s|^build/||; s|\\.o:| |"
    nm -A -g --defined-only "${objects[@]}" | sed "$strip" | awk '$(NF-1) ~ /^[TDBR]$/ {print $NF, $1}' |
        sort -k1,1 >"$tmp/defined"
    nm -A -u "${objects[@]}" | sed "$strip" | awk '{print $NF, $1}' | sort -k1,1 >"$tmp/used"
    join "$tmp/used" "$tmp/defined" | awk '$2 != $3 { print $2, $3 }' | sort -u
}

# | `fit/` | `util/` `core/` ... |: lowest first, the folder itself left out.
table() {
    echo '| folder | includes files of |'
    echo '|---|---|'
    includes | awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1] }' | sort -u >"$tmp/folders"
    local l to below
    for l in $LAYERS; do
        below=""
        for to in $LAYERS; do
            if grep -qx "$l $to" "$tmp/folders"; then below="$below \`$to/\`"; fi
        done
        echo "| \`$l/\` |${below:- none} |"
    done
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case ${1:-} in
layers) echo "$LAYERS" ;;
sources) sources ;;
includes) includes ;;
calls) calls "${2:?layout-graph.sh calls BUILD: the build folder holding the objects}" ;;
table) table ;;
*) echo "usage: layout-graph.sh layers|sources|includes|calls BUILD|table" >&2; exit 2 ;;
esac
