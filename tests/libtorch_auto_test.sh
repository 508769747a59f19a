# make LIBTORCH=auto, checked with `make print-torch` against a fake python3
# on PATH and fake torch folders laid out as pip wheels lay them out:
# torch/{include,lib} in site-packages, cudart in nvidia/cu13/lib (CUDA 13)
# or nvidia/cuda_runtime/lib (CUDA 12). Nothing is compiled.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS/.." && pwd)
unset MAKEFLAGS MFLAGS MAKELEVEL # a make test run with its own LIBTORCH must not leak it here

# fake_python DIR TORCH_DIR|"" : a python3 that answers the Makefile's two
# questions (torch's folder, its C++ ABI) or, without TORCH_DIR, cannot import torch.
fake_python() {
    mkdir -p "$1"
    if [ -n "$2" ]; then
        cat >"$1/python3" <<EOF
#!/bin/sh
case "\$2" in
*_GLIBCXX_USE_CXX11_ABI*) echo 1 ;;
*) echo '$2' ;;
esac
EOF
    else
        printf '#!/bin/sh\necho "ModuleNotFoundError: No module named torch" >&2\nexit 1\n' >"$1/python3"
    fi
    chmod +x "$1/python3"
}

# fake_torch SITE [cuda13|cuda12|cuda-no-cudart]: SITE/torch as a wheel installs it.
fake_torch() {
    mkdir -p "$1/torch/include/torch/csrc/api/include" "$1/torch/lib"
    touch "$1/torch/lib/libtorch.so" "$1/torch/lib/libtorch_cpu.so" "$1/torch/lib/libc10.so"
    case "${2:-}" in
    cuda*) touch "$1/torch/lib/libtorch_cuda.so" "$1/torch/lib/libc10_cuda.so" ;;
    esac
    local sub=
    case "${2:-}" in cuda13) sub=cu13 ;; cuda12) sub=cuda_runtime ;; esac
    if [ -n "$sub" ]; then
        mkdir -p "$1/nvidia/$sub/lib" "$1/nvidia/$sub/include"
        touch "$1/nvidia/$sub/lib/libcudart.so.${2#cuda}" "$1/nvidia/$sub/include/cuda_runtime_api.h"
    fi
}

# print_torch PATH_PREFIX [make args...]: make print-torch's output (and its errors)
print_torch() {
    local prefix=$1
    shift
    PATH="$prefix:$PATH" make -s --no-print-directory -C "$ROOT" print-torch CUDA_HOME="$TMP/no-cuda" "$@" 2>&1
}

field() { grep "^$1=" <<<"$2" | cut -d= -f2-; }

# No importable torch: a clear stop, naming python3 and what to do.
fake_python "$TMP/none" ""
out=$(print_torch "$TMP/none" LIBTORCH=auto) && fail "LIBTORCH=auto without torch succeeded: $out"
grep -q "LIBTORCH=auto: python3 cannot import torch; install PyTorch (pip install torch) or give LIBTORCH=/path/to/libtorch" \
    <<<"$out" || fail "no-torch message: $out"

# A CPU wheel: its include and lib, its ABI, no CUDA.
fake_torch "$TMP/cpu/site"
fake_python "$TMP/cpu/bin" "$TMP/cpu/site/torch"
out=$(print_torch "$TMP/cpu/bin" LIBTORCH=auto) || fail "cpu wheel: $out"
expect_eq "cpu wheel: LIBTORCH" "$(field LIBTORCH "$out")" "$TMP/cpu/site/torch"
expect_eq "cpu wheel: ABI" "$(field TORCH_ABI "$out")" 1
expect_eq "cpu wheel: CUDA" "$(field PF_CUDA "$out")" 0
grep -q -- "-isystem $TMP/cpu/site/torch/include -isystem $TMP/cpu/site/torch/include/torch/csrc/api/include -D_GLIBCXX_USE_CXX11_ABI=1" \
    <<<"$(field TORCH_INC "$out")" || fail "cpu wheel: include flags: $out"
expect_eq "cpu wheel: libraries" "$(field TORCH_LIB "$out")" \
    "-L$TMP/cpu/site/torch/lib -Wl,-rpath,$TMP/cpu/site/torch/lib -ltorch -ltorch_cpu -lc10"

# A CUDA 13 wheel: cudart and its headers from nvidia/cu13.
fake_torch "$TMP/cu13/site" cuda13
fake_python "$TMP/cu13/bin" "$TMP/cu13/site/torch"
out=$(print_torch "$TMP/cu13/bin" LIBTORCH=auto) || fail "cu13 wheel: $out"
expect_eq "cu13 wheel: CUDA" "$(field PF_CUDA "$out")" 1
expect_eq "cu13 wheel: cudart" "$(field CUDART "$out")" "$TMP/cu13/site/torch/../nvidia/cu13/lib/libcudart.so.13"
grep -q -- "-DPF_WITH_CUDA -isystem $TMP/cu13/site/torch/../nvidia/cu13/include" <<<"$(field TORCH_INC "$out")" ||
    fail "cu13 wheel: include flags: $out"
grep -q -- "-Wl,--push-state,--no-as-needed -ltorch_cuda -lc10_cuda -Wl,--pop-state $TMP/cu13/site/torch/../nvidia/cu13/lib/libcudart.so.13" \
    <<<"$(field TORCH_LIB "$out")" || fail "cu13 wheel: libraries: $out"

# A CUDA 12 wheel: nvidia/cuda_runtime.
fake_torch "$TMP/cu12/site" cuda12
fake_python "$TMP/cu12/bin" "$TMP/cu12/site/torch"
out=$(print_torch "$TMP/cu12/bin" LIBTORCH=auto) || fail "cu12 wheel: $out"
expect_eq "cu12 wheel: cudart" "$(field CUDART "$out")" "$TMP/cu12/site/torch/../nvidia/cuda_runtime/lib/libcudart.so.12"
out=$(print_torch "$TMP/cu12/bin" LIBTORCH=auto PF_CUDA=0) || fail "cu12 wheel, PF_CUDA=0: $out"
expect_eq "PF_CUDA=0 builds without CUDA" "$(field PF_CUDA "$out") $(grep -c PF_WITH_CUDA <<<"$out")" "0 0"

# CUDA libraries but no cudart anywhere: a clear stop.
fake_torch "$TMP/bare/site" cuda-no-cudart
out=$(print_torch "$TMP/none" LIBTORCH="$TMP/bare/site/torch") && fail "CUDA without cudart succeeded: $out"
grep -q "$TMP/bare/site/torch has CUDA but no libcudart was found beside it or in CUDA_HOME=$TMP/no-cuda; give CUDA_HOME=/path/to/cuda, or PF_CUDA=0 to build without CUDA" \
    <<<"$out" || fail "no-cudart message: $out"

out=$(print_torch "$TMP/cpu/bin" LIBTORCH=auto) || fail "cpu wheel: $out"
expect_eq "cpu wheel: C++17" "$(field CXX_STD "$out")" c++17
# A libtorch whose headers refuse C++17 (2.14 and later) is compiled as C++20.
mkdir -p "$TMP/cpu/site/torch/include/ATen"
printf '#if __cplusplus < 202002L\n#error C++20 or later compatible compiler is required to use ATen.\n#endif\n' \
    >"$TMP/cpu/site/torch/include/ATen/ATen.h"
out=$(print_torch "$TMP/cpu/bin" LIBTORCH=auto) || fail "C++20 wheel: $out"
expect_eq "C++20 wheel" "$(field CXX_STD "$out")" c++20

# LIBTORCH=/path asks no python (here one that cannot import torch).
out=$(print_torch "$TMP/none" LIBTORCH="$TMP/cpu/site/torch") || fail "LIBTORCH=/path: $out"
expect_eq "LIBTORCH=/path" "$(field LIBTORCH "$out") $(field TORCH_ABI "$out")" "$TMP/cpu/site/torch "
# And the default build is Debian's libtorch.
out=$(print_torch "$TMP/none") || fail "default: $out"
expect_eq "default build" "$(field LIBTORCH "$out") $(field PF_CUDA "$out")" " 0"
echo "libtorch_auto: ok"
