#!/usr/bin/env bash
# make cuda-build's check of the build linked against PyTorch's CUDA wheel,
# on a machine with no GPU: the worker starts (every CUDA library resolves),
# says CUDA is compiled in and that no GPU is visible, and `peakfit grid` on
# a cuda sweep stops with exit 2 naming the sweep's line and the reason.
# Usage: tests/cuda_build_check.sh BIN (the make BIN= of that build).
bin=$(cd "${1:?usage: tests/cuda_build_check.sh BIN}" && pwd)
PEAKFIT=$bin/peakfit PEAKFIT_WORKER=$bin/peakfit-worker
source "$(dirname "$0")/lib.sh"

facts=$("$PEAKFIT_WORKER" --facts cuda 2>&1) || fail "peakfit-worker --facts did not run: $facts"
grep -qx "cuda_compiled 1" <<<"$facts" || fail "--facts: CUDA is not compiled in: $facts"
grep -qx "available cuda 0" <<<"$facts" || fail "--facts: expected no visible GPU here: $facts"
version=$("$PEAKFIT" --version) || fail "peakfit --version failed"
grep -qx "cuda compiled in" <<<"$version" || fail "--version: $version"
grep -qx "cuda devices: none visible" <<<"$version" || fail "--version does not say no GPU is visible: $version"

write_sweep "$TMP/cuda.sweep" <<'SWEEP'
[global]
model = tiny
device = cuda

[full]
technique = full
batch = 1
seq_len = 32
SWEEP
err=$("$PEAKFIT" grid "$TMP/cuda.sweep" 2>&1 >/dev/null); rc=$?
expect_eq "grid on a cuda sweep: exit status" "$rc" 2
grep -q "cuda.sweep:3: device cuda: no CUDA GPU is visible on this machine" <<<"$err" ||
    fail "grid on a cuda sweep: $err"
echo "cuda build: $(grep '^libtorch' <<<"$facts"), CUDA compiled in, no GPU visible, grid refuses cuda (exit 2)"
