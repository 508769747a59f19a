#!/usr/bin/env bash
# Tensor peaks (allocator level, tensor_peak_mib) and RSS of the same points
# on the two libtorch versions peakfit is built against: Debian's 1.13 (the
# default build, bin/) and PyTorch 2.13's CPU wheel (make test-torch2's
# build, build-torch2/bin), sdpa and eager, the tiny preset and SmolLM2-135M.
# On 1.13 sdpa is the shim's own memory-efficient function; on 2.13 it is
# at::scaled_dot_product_attention with enable_gqa. The two builds measure
# the points interleaved (point K on 1.13, then on 2.13), in one run.
# Writes bench/results/torch-versions/{sweep,table.md,1.13.csv,2.13.csv}.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-.venv}
make -s all
make -s LIBTORCH=auto PYTHON="$(realpath "$venv")/bin/python" B=build-torch2 BIN=build-torch2/bin all
out=${OUT:-bench/results/torch-versions}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$out/sweep" <<'SWEEP'
# bench/torch-versions.sh: the same points on libtorch 1.13 and 2.13.
[global]
device = cpu
threads = 2
steps = 1
timeout = 20m
technique = full
attention = sdpa, eager

[tiny]
model = tiny
batch = 1, 4
seq_len = 256

[smollm2]
model = smollm2-135m
batch = 1, 2
seq_len = 256
SWEEP
points=$(bin/peakfit grid "$out/sweep" 2>/dev/null | wc -l)
for k in $(seq 0 $((points - 1))); do # --point counts from 0
    bin/peakfit run "$out/sweep" -o "$tmp/1.13" --point "$k" >/dev/null 2>&1
    build-torch2/bin/peakfit run "$out/sweep" -o "$tmp/2.13" --point "$k" >/dev/null 2>&1
done
columns="point_id torch_version status tensor_peak_mib forward_peak_mib backward_peak_mib peak_above_baseline_mib step_mean_s"
for v in 1.13 2.13; do
    build/tests/tools/csvq "$tmp/$v/peaks.csv" $columns | sort >"$out/$v.csv"
done
{
    echo "# Tensor peaks on libtorch 1.13 and 2.13, the same points"
    echo
    echo "\`bench/torch-versions.sh\` ($(git rev-parse --short HEAD), $(date -u +%F), $(nproc) cores, threads = 2, one"
    echo "training step, AdamW state made before it): the sweep is \`sweep\` here; 1.13 is Debian's libtorch (bin/),"
    echo "2.13 the CPU wheel (build-torch2/bin). MiB above each worker's baseline; ratio = 2.13 / 1.13."
    echo
    echo "| point | 1.13 tensor peak | 2.13 tensor peak | ratio | 1.13 forward | 2.13 forward | 1.13 RSS above baseline | 2.13 RSS above baseline | RSS ratio |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    join -t $'\t' "$out/1.13.csv" "$out/2.13.csv" | awk -F'\t' '{
        printf "| %s | %.1f | %.1f | %.4f | %.1f | %.1f | %.1f | %.1f | %.3f |\n",
            $1, $4, $11, $11 / $4, $5, $12, $7, $14, $14 / $7 }'
} >"$out/table.md"
cat "$out/table.md"
