#!/usr/bin/env bash
# make macos-build's check of the two binaries cross-built for macOS on
# Apple silicon (tests/tools/macos-build.sh): each is a Mach-O arm64
# executable (as file(1) says, where it is installed, and as its header
# says); peakfit-worker loads libtorch, libtorch_cpu and libc10 by @rpath
# and has a run path; peakfit loads no libtorch; neither loads anything
# but macOS's own libraries (/usr/lib, /System) and libtorch's: no Linux
# library (.so), no path of the build machine.
# Usage: tests/macos_build_check.sh BIN (the build's bin folder).
bin=$(cd "${1:?usage: tests/macos_build_check.sh BIN}" && pwd)
source "$(dirname "$0")/lib.sh"
reader=$(dirname "$CSVQ")/macho_dylibs
[ -x "$reader" ] || fail "no $reader (make test-programs builds it)"

# LOADS NAME: the binary's libraries, one a line.
for name in peakfit peakfit-worker; do
    file=$bin/$name
    [ -f "$file" ] || fail "no $file"
    if command -v file >/dev/null; then
        grep -q "Mach-O 64-bit arm64 executable" <<<"$(file -b "$file")" || fail "$name: file says: $(file -b "$file")"
    fi
    out=$("$reader" "$file") || fail "$name: $out"
    expect_eq "$name: format" "$(head -1 <<<"$out")" "macho arm64 execute"
    libs=$(sed -n 's/^dylib //p' <<<"$out")
    grep -q '^/usr/lib/libSystem' <<<"$libs" || fail "$name: does not load libSystem: $libs"
    foreign=$(grep -vE '^(/usr/lib/|/System/Library/|@rpath/lib(torch|torch_cpu|c10)\.dylib$)' <<<"$libs" || true)
    [ -z "$foreign" ] || fail "$name: loads libraries that are neither macOS's nor libtorch's: $foreign"
    case $name in
    peakfit)
        ! grep -q '@rpath' <<<"$libs" || fail "peakfit loads libtorch (it must stay light): $libs" ;;
    peakfit-worker)
        for lib in torch torch_cpu c10; do
            grep -qx "@rpath/lib$lib.dylib" <<<"$libs" || fail "peakfit-worker does not load @rpath/lib$lib.dylib: $libs"
        done
        grep -q '^rpath ' <<<"$out" || fail "peakfit-worker has no run path: $out" ;;
    esac
    echo "$name: Mach-O arm64 executable; loads $(tr '\n' ' ' <<<"$libs")"
done
echo "macos build check: 2 passed, 0 failed"
