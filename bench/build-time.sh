#!/usr/bin/env bash
# Model build time per point (build_s), for a Qwen2.5-0.5B-shaped model
# (tests/fixtures/models/Qwen2.5-0.5B/config.json: 494M parameters), before
# and after the cheap weight fill (shim/decoder.cpp fill_uniform: one drawn
# tile repeated, instead of a draw per value). The same points run with the
# peakfit-worker of BEFORE (default ace8011, the commit before the change,
# built from git history by bench/old-build.sh; or OLD_BIN, a bin/ holding peakfit and
# peakfit-worker built before it, given as $1) and with this tree's, one
# after the other, in ROUNDS (default two). The memory columns say what
# else differs between the two builds: inference allocates the same bytes;
# LoRA 4.1 MiB fewer at the allocator level in this tree, from changes
# since (bench/results/build-time.txt).
# Usage: bench/build-time.sh [OLD_BIN]  (writes bench/results/build-time.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
before=${BEFORE:-ace8011}
peakfit=${PEAKFIT:-bin/peakfit}
make -s all
out=${OUT:-bench/results/build-time.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 1 ]; then
    old=$(realpath "$1") before="OLD_BIN"
else
    bench/old-build.sh "$before" "$tmp/old" bin/peakfit bin/peakfit-worker
    old=$tmp/old/bin
fi
cat >"$tmp/qwen.sweep" <<SWEEP
[global]
model = $PWD/tests/fixtures/models/Qwen2.5-0.5B/config.json
device = cpu
threads = 2
steps = 1
timeout = 30m

[points]
technique = inference, lora
batch = 1
seq_len = 32
SWEEP
rows() { # WHICH DIR: one line per point of DIR's peaks.csv (columns found by name)
    awk -F, -v which="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%-7s %-10s %5s %7s %9.2f %16.1f %13.1f\n", which, $c["technique"], $c["batch"], $c["seq_len"],
              $c["build_s"], $c["tensor_peak_mib"], $c["peak_rss_mib"] }' "$2/peaks.csv"
}
# summary: from the rows, per technique, build_s before -> after (the mean
# of the rounds) and each memory column's difference (the last round's).
summary() {
    awk '{ k = $2; n[$1 k]++; b[$1 k] += $5; t[$1 k] = $6; r[$1 k] = $7; techs[k] = 1 }
        END { for (k in techs) {
                  before = b["before" k] / n["before" k]; after = b["after" k] / n["after" k]
                  dt = t["after" k] - t["before" k]; dr = r["after" k] - r["before" k]
                  printf "# %s: build_s %.2f -> %.2f s (%.1fx); tensor peak %+.1f MiB, RSS %+.1f MiB (after - before)\n",
                      k, before, after, before / after, dt, dr } }' | sort
}
{
    echo "# bench/build-time.sh: model build time per point, Qwen2.5-0.5B-shaped config (494M parameters), CPU, 2 threads"
    echo "# before: $before's peakfit-worker, the commit before the cheap fill; after: this tree ($(git rev-parse --short HEAD)); $(nproc) cores, $(date -u +%F)"
    printf "%-7s %-10s %5s %7s %9s %16s %13s\n" which technique batch seq_len build_s tensor_peak_mib peak_rss_mib
    for round in ${ROUNDS:-1 2}; do
        PEAKFIT_WORKER=$old/peakfit-worker "$old/peakfit" run "$tmp/qwen.sweep" -o "$tmp/before$round" >/dev/null 2>&1
        "$peakfit" run "$tmp/qwen.sweep" -o "$tmp/after$round" >/dev/null 2>&1
        rows before "$tmp/before$round"
        rows after "$tmp/after$round"
    done | tee "$tmp/rows"
    summary <"$tmp/rows"
} | tee "$out"
