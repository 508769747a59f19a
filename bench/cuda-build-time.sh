#!/usr/bin/env bash
# What the CUDA build costs, step by step, as CI would pay it (a fresh venv,
# a fresh build folder, no ccache): make venv-cuda (pip installs the 2.14.1
# CUDA wheel and its nvidia-* wheels from the local disk), make cuda-compile
# (every shim translation unit against the wheel's headers, CUDA compiled
# in), the C objects, the link of peakfit-worker against libtorch_cuda, and
# tests/cuda_build_check.sh. Each step is timed on its own: wall seconds,
# and the CPU seconds (user + system, every child process's) that a machine
# of its own would spend, with the load average beside them: this machine is
# shared, CI's is not; on CI's 2 cores a -j2 step takes about CPU / 2.
# Usage: bench/cuda-build-time.sh [VENV_DIR]   (default .venv-cuda; it must
# not exist yet: the install is what is measured; it is kept afterwards for
# reuse. REUSE_VENV=1 measures the other steps with an existing one.)
# Adds a section (one run) to OUT (default bench/results/cuda-build-time.txt;
# bench/run cuda-build-time: a file of that run alone).
#
# No result is committed yet. The two runs so far, 2026-12-04 on 2 cores
# shared with other work (load 4 to 15), each with an earlier form of this
# script, make -j2, no ccache, a fresh build folder; torch 2.14.1+cu130,
# CUDA 13.0, the venv 5.4G:
#   run 1 (6f9c344, a fresh venv; wall seconds only, load before and after):
#     venv-cuda 256.8 s, cuda-compile 2699.2 s (load 8.5 -> 13.9), c-objects
#     51.5 s, link-worker 23.1 s (load 14.9), check 4.7 s; 11 shim
#     translation units; the check: libtorch 2.14.1, CUDA compiled in, no
#     GPU visible, grid refuses cuda (exit 2).
#   run 2 (1c81eaf, REUSE_VENV=1; wall and CPU seconds, from its .time files):
#     cuda-compile 2552.8 s wall, 585.1 s CPU; c-objects 96.3 s wall, 17.0 s
#     CPU. Stopped during link-worker: the tree changed under it (the
#     Makefile and shim headers), so that step recompiled the shim and its
#     figure is no link time.
# On CI's 2 cores (-j2, nothing else running) cuda-compile is then about
# 585 / 2 s, 5 minutes; the link, 23 s of wall time at load 14, seconds of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv-cuda}
python=$(realpath -m "$venv")/bin/python
[ ! -e "$venv" ] || [ -n "${REUSE_VENV:-}" ] ||
    { echo "bench/cuda-build-time.sh: $venv exists; give a new directory (the install is measured), or REUSE_VENV=1" >&2; exit 2; }
out=${OUT:-bench/results/cuda-build-time.txt}
b=$(mktemp -d /tmp/cuda-build-time.XXXXXX)
trap 'rm -rf "$b"' EXIT
export CCACHE_DISABLE=1
JOBS=${JOBS:-2}
MK=(make -j"$JOBS" VENV_CUDA="$venv" CUDA_B="$b")
rows=()
step() { # NAME CMD...: runs CMD, adds a row with its wall and CPU seconds and the load average around it
    local name=$1; shift
    local load0
    load0=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %U %S" -o "$b/$name.time" "$@" >"$b/$name.log" 2>&1 ||
        { echo "bench/cuda-build-time.sh: $name failed:" >&2; tail -20 "$b/$name.log" >&2; exit 1; }
    rows+=("$(awk -v n="$name" -v l0="$load0" -v l1="$(cut -d' ' -f1 /proc/loadavg)" \
        '{ printf "%-14s %9.1f %9.1f %6s %6s", n, $1, $2 + $3, l0, l1 }' "$b/$name.time")")
}
if [ -e "$venv" ]; then
    rows+=("$(printf "%-14s %9s %9s" venv-cuda reused reused)")
else
    step venv-cuda "${MK[@]}" venv-cuda
fi
step cuda-compile "${MK[@]}" cuda-compile
# The C side (peakfit and every C object the worker links), then the link alone.
step c-objects    "${MK[@]}" LIBTORCH=auto PYTHON="$python" B="$b" BIN="$b/bin" \
                  "$b/bin/peakfit" "$b/src/worker_main.o" "$b/worker/worker.o"
step link-worker  "${MK[@]}" LIBTORCH=auto PYTHON="$python" B="$b" BIN="$b/bin" "$b/bin/peakfit-worker"
step check        tests/cuda_build_check.sh "$b/bin"
{
    echo "# bench/cuda-build-time.sh: the CUDA build's steps, make -j$JOBS, no ccache, a fresh build folder"
    echo "# $(git rev-parse --short HEAD), $(nproc) cores, $(date -u +%F); load = /proc/loadavg's 1-minute figure before and after the step"
    echo "# torch $("$python" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)' 2>/dev/null), venv $(du -sh "$venv" | cut -f1)"
    printf "%-14s %9s %9s %6s %6s\n" step wall_s cpu_s load0 load1
    printf "%s\n" "${rows[@]}"
    echo "# shim translation units compiled: $(ls "$b"/shim/*.o | wc -l); $(tail -1 "$b/check.log")"
} | tee -a "$out"
