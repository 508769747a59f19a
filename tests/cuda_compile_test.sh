# The CUDA part of the shim (shim/device_memory.cpp with PF_WITH_CUDA)
# compiles, syntax only, against the libtorch headers here (Debian's
# libtorch-dev ships c10/cuda) and CUDA's cuda_runtime_api.h from CUDA_HOME,
# /usr/local/cuda or /usr/include. No GPU, no CUDA library is needed. Debian
# main has no package with the CUDA runtime headers (nvidia-cuda-dev is in
# non-free): where none is installed, the test says so and skips.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS/.." && pwd)
CXX=${CXX:-g++}

cuda_inc=
for d in "${CUDA_HOME:-/usr/local/cuda}/include" /usr/local/cuda/include /usr/include; do
    if [ -f "$d/cuda_runtime_api.h" ]; then
        cuda_inc=$d
        break
    fi
done
[ -n "$cuda_inc" ] || skip "no cuda_runtime_api.h in \$CUDA_HOME/include, /usr/local/cuda/include or /usr/include (install the CUDA toolkit's headers to run this check)"
[ -f /usr/include/c10/cuda/CUDACachingAllocator.h ] || skip "libtorch-dev has no c10/cuda headers here"

# Debian's libtorch-dev leaves out one header that CMake generates for the
# CUDA build; its whole content is this define.
mkdir -p "$TMP/gen/c10/cuda/impl"
[ -f /usr/include/c10/cuda/impl/cuda_cmake_macros.h ] ||
    printf '#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n' >"$TMP/gen/c10/cuda/impl/cuda_cmake_macros.h"

"$CXX" -std=c++17 -Wall -Wextra -Werror -fsyntax-only -DPF_WITH_CUDA -I"$ROOT" -I"$ROOT/shim" \
    -isystem /usr/include/torch/csrc/api/include -isystem "$TMP/gen" -isystem "$cuda_inc" \
    "$ROOT/shim/device_memory.cpp" 2>"$TMP/err" || fail "shim/device_memory.cpp does not compile with PF_WITH_CUDA: $(head -c 3000 "$TMP/err")"
grep -q "PF_WITH_CUDA" "$ROOT/shim/device_memory.cpp" || fail "device_memory.cpp has no PF_WITH_CUDA part"
echo "cuda_compile: shim/device_memory.cpp compiles with PF_WITH_CUDA against $cuda_inc"
