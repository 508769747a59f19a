#!/usr/bin/env bash
# #18's last figure: "the 24 GiB plan's micro-batch, measured, stays under
# 24 GiB". The plan is the issue's own command, `peakfit calc DIR --budget
# 24GiB --target-batch 256`, from the Qwen2.5-0.5B-shaped directories of
# bench/auto-sweep.sh: qwen-auto (what `peakfit auto` measured) and
# qwen-dense (auto's points, the held-out ones and the dense stage's).
# For each plan this prints calc's micro-batch, its prediction and interval,
# and the measured peak of that micro-batch x seq_len (full, sdpa, ok rows)
# from any peaks.csv under bench/results/auto-sweep/qwen-*; with MEASURE=1 a
# plan point measured nowhere is measured into bench/results/auto-sweep/
# qwen-plan24 (mem_limit 22 GiB: the kernel keeps the rest; LOCK=FILE: the
# run under flock FILE). It also prints the largest micro-batch calc says fits,
# and whether this machine's memory could hold it.
# Output: OUT, default bench/results/auto-sweep/plan24.txt. Usage: bench/plan24.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/results/auto-sweep
pf=${PEAKFIT:-bin/peakfit}
sweep_of() { # B S: a one-point sweep at B x S (paths relative to the sweep file)
    printf '[global]\nmodel = ../../../configs/qwen2.5-0.5b/config.json\ndevice = cpu\nattention = sdpa\n'
    printf 'threads = 2\nmem_limit = 22GiB\ntimeout = 30m\n\n[plan24]\ntechnique = full\nseq_len = %s\nbatch = %s\n' "$2" "$1"
}
measured_peak() { # B S: each measured peak (baseline included) of B x S and its file, or nothing
    python3 - "$1" "$2" "$out"/qwen-*/peaks.csv <<'EOF'
import csv, sys
b, s = sys.argv[1], sys.argv[2]
for path in sys.argv[3:]:
    for r in csv.DictReader(open(path)):
        if (r["batch"], r["seq_len"], r["status"], r["technique"], r["attention"]) == (b, s, "ok", "full", "sdpa"):
            print(f'{float(r["peak_rss_mib"]):.1f} {path}')
EOF
}
{
    echo "# bench/plan24.sh (bench/run's header above gives the commit and the date); MemTotal $(awk '/MemTotal/ {printf "%.0f MiB", $2/1024}' /proc/meminfo)"
    for d in qwen-auto qwen-dense; do
        json=$("$pf" calc "$out/$d" --budget 24GiB --target-batch 256 --technique full --json)
        read -r b s pred half most <<<"$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(j["micro_batch"], j["seq_len"], j["predicted_peak_mib"], j["predicted_peak_ci95_mib"], j["max_micro_batch"])' "$json")"
        got=$(measured_peak "$b" "$s")
        if [ -z "$got" ] && [ -n "${MEASURE:-}" ]; then
            mkdir -p "$out/qwen-plan24"
            sweep_of "$b" "$s" >"$out/qwen-plan24/plan24-b${b}s${s}.sweep"
            ${LOCK:+flock "$LOCK"} "$pf" run "$out/qwen-plan24/plan24-b${b}s${s}.sweep" -o "$out/qwen-plan24" >&2 || true
            got=$(measured_peak "$b" "$s")
        fi
        printf '%s: calc --budget 24GiB --target-batch 256: micro-batch b = %s at s = %s, predicted %.1f +- %.1f MiB\n' "$d" "$b" "$s" "$pred" "$half"
        if [ -n "$got" ]; then
            while read -r peak where; do
                awk -v p="$peak" -v w="$where" -v e="$pred" 'BEGIN { printf "  measured %.1f MiB (baseline included; %s): %+.2f%% from the prediction, %s 24 GiB (24576 MiB)\n", p, w, 100 * (e - p) / p, p < 24576 ? "under" : "OVER" }'
            done <<<"$got"
        else
            echo "  not measured (MEASURE=1 measures it)"
        fi
        echo "  the largest micro-batch calc says fits at s = $s: b = $most (its upper bound within 24 GiB; a peak this near 24 GiB cannot be measured in this machine's memory)"
    done
} | tee "${OUT:-$out/plan24.txt}"
