#!/usr/bin/env bash
# make macos-build: bin/peakfit and bin/peakfit-worker for macOS on Apple
# silicon (aarch64-macos), cross-compiled on Linux with zig's clang, against
# PyTorch's macOS arm64 wheel, and checked (tests/macos_build_check.sh).
# Everything comes through pip and apt: zig (the ziglang package), the torch
# wheel, and Debian's source packages of GSL, jansson, libcsv and cmark-gfm,
# which are built here for macOS. The downloads are kept in CACHE (reruns
# skip them); the build goes to OUT.
# Usage: tests/tools/macos-build.sh [OUT [CACHE]] (default build-macos and
# .cache/macos). The binaries have been built this way but not run on a Mac
# (docs/building.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mkdir -p "${1:-build-macos}" && cd "${1:-build-macos}" && pwd)
cache=$(mkdir -p "${2:-.cache/macos}" && cd "${2:-.cache/macos}" && pwd)
ZIG_VERSION=0.17.1
TORCH_VERSION=2.13.0
TARGET=aarch64-macos.14.0
SOURCES="gsl jansson libcsv cmark-gfm"
deps=$out/deps
# zig's own cache (compiler-rt and libc++ built for the target on first
# use) goes beside the downloads, so a clean state is clean of it too.
export ZIG_GLOBAL_CACHE_DIR=$cache/zig-cache ZIG_LOCAL_CACHE_DIR=$out/zig-cache
start=$SECONDS
say() { echo "macos-build: $* ($((SECONDS - start)) s)"; }

# pip download WHEEL_GLOB ARGS...: the wheel, unless the cache has it.
fetch_wheel() {
    local glob=$1
    shift
    compgen -G "$cache/wheels/$glob" >/dev/null ||
        python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: -d "$cache/wheels" "$@"
}

fetch_wheel "ziglang-$ZIG_VERSION-*manylinux*x86_64*.whl" "ziglang==$ZIG_VERSION"
fetch_wheel "torch-$TORCH_VERSION-*macosx*arm64.whl" --platform macosx_14_0_arm64 --python-version 3.11 "torch==$TORCH_VERSION"
if [ ! -x "$cache/zig/ziglang/zig" ]; then
    rm -rf "$cache/zig" && mkdir -p "$cache/zig"
    (cd "$cache/zig" && python3 -m zipfile -e "$cache"/wheels/ziglang-"$ZIG_VERSION"-*manylinux*x86_64*.whl .)
    chmod +x "$cache/zig/ziglang/zig"
fi
if [ ! -f "$cache/torch/torch/include/torch/version.h" ]; then
    rm -rf "$cache/torch" && mkdir -p "$cache/torch"
    (cd "$cache/torch" && unzip -q "$cache"/wheels/torch-"$TORCH_VERSION"-*macosx*arm64.whl 'torch/include/*' 'torch/lib/*')
fi
say "zig $("$cache/zig/ziglang/zig" version) and torch $TORCH_VERSION's macOS wheel ready"

# The source packages: apt-get source needs a deb-src entry; one is added
# beside the deb entries (Debian's deb822 file) only where there is none.
if ! compgen -G "$cache/src/cmark-gfm_*.dsc" >/dev/null || ! compgen -G "$cache/src/gsl_*.dsc" >/dev/null ||
    ! compgen -G "$cache/src/jansson_*.dsc" >/dev/null || ! compgen -G "$cache/src/libcsv_*.dsc" >/dev/null; then
    if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        if [ -f /etc/apt/sources.list.d/debian.sources ]; then
            sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >/etc/apt/sources.list.d/peakfit-deb-src.sources
        else
            sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >/etc/apt/sources.list.d/peakfit-deb-src.list
        fi
        apt-get update -qq
    fi
    command -v dpkg-source >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev
    mkdir -p "$cache/src"
    # shellcheck disable=SC2086 # the package names, one word each
    (cd "$cache/src" && apt-get source -qq --download-only $SOURCES 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
fi
command -v cmake >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake
say "sources of $SOURCES ready"

# The compilers: zig's clang for the target, as single commands (for
# configure and CMake).
tools=$out/tools
mkdir -p "$tools"
for tool in cc c++ ar ranlib; do
    case $tool in cc | c++) args="-target $TARGET" ;; *) args="" ;; esac
    printf '#!/bin/sh\nexec "%s" %s %s "$@"\n' "$cache/zig/ziglang/zig" "$tool" "$args" >"$tools/$tool"
    chmod +x "$tools/$tool"
done

# Each library is built once into deps (a stamp says it is there).
unpack() {
    rm -rf "$out/src/$1" && mkdir -p "$out/src"
    dpkg-source -q --no-check -x "$(compgen -G "$cache/src/$1_*.dsc" | head -1)" "$out/src/$1" >/dev/null
}
cmake_lib() {
    local name=$1
    shift
    unpack "$name"
    cmake -S "$out/src/$name" -B "$out/src/$name/build" -DCMAKE_SYSTEM_NAME=Darwin -DCMAKE_SYSTEM_PROCESSOR=arm64 \
        -DCMAKE_C_COMPILER="$tools/cc" -DCMAKE_AR="$tools/ar" -DCMAKE_RANLIB="$tools/ranlib" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$deps" -DBUILD_SHARED_LIBS=OFF "$@"
    cmake --build "$out/src/$name/build" -j2
    cmake --install "$out/src/$name/build"
}
build_libcsv() {
    unpack libcsv
    mkdir -p "$deps/lib" "$deps/include"
    "$tools/cc" -O2 -c -o "$out/src/libcsv/libcsv.o" "$out/src/libcsv/libcsv.c"
    rm -f "$deps/lib/libcsv.a" && "$tools/ar" rcs "$deps/lib/libcsv.a" "$out/src/libcsv/libcsv.o"
    cp "$out/src/libcsv/csv.h" "$deps/include/"
}
build_jansson() { cmake_lib jansson -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF; }
build_cmark-gfm() { cmake_lib cmark-gfm -DCMARK_TESTS=OFF -DCMARK_SHARED=OFF -DCMARK_STATIC=ON; }
# Debian's GSL source leaves out the manual's sources: its doc folder
# gets a Makefile that does nothing.
build_gsl() {
    unpack gsl
    cd "$out/src/gsl"
    ./configure -q --host=aarch64-apple-darwin --prefix="$deps" --disable-shared \
        CC="$tools/cc" AR="$tools/ar" RANLIB="$tools/ranlib" CFLAGS=-O2
    printf 'all install clean:\n\t@:\n' >doc/Makefile
    make -s -j2
    make -s install
}
mkdir -p "$out/logs"
for lib in $SOURCES; do
    if [ ! -f "$deps/.$lib" ]; then
        ( "build_$lib" ) >"$out/logs/$lib.log" 2>&1 || { tail -30 "$out/logs/$lib.log"; echo "macos-build: $lib failed ($out/logs/$lib.log)" >&2; exit 1; }
        touch "$deps/.$lib"
    fi
    say "$lib built"
done

# peakfit itself: the Makefile's own rules, for macOS (PF_OS=darwin), the
# libraries above and the wheel's libtorch. The binaries find libtorch
# through @rpath: beside them in ../lib, or where DYLD_LIBRARY_PATH says.
make --no-print-directory -j2 PF_OS=darwin B="$out" BIN="$out/bin" LIBTORCH="$cache/torch/torch" \
    TORCH_RPATH=@executable_path/../lib DEPS_PREFIX="$deps" CC="$tools/cc" CXX="$tools/c++" AR="$tools/ar" \
    "$out/bin/peakfit" "$out/bin/peakfit-worker" >"$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
say "peakfit and peakfit-worker linked"
tests/macos_build_check.sh "$out/bin"
