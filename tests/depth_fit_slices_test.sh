# The whole model from measured slices: Qwen2.5-0.5B-shaped's slices of 1, 2
# and 4 layers (tests/fixtures/qwen2.5-0.5b-slices-peaks.csv, 15 points,
# most of them on backward's own floor) give the whole model's A within
# 0.01 % of the A its own points measured
# (bench/results/auto-sweep/summary.txt's qwen-auto: 4.2114 MiB/token). The
# line is the backward phase refitted to the points where it is on top;
# fitted to all the points, forward's flatter line won (3.63, -14 %).
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
mkdir "$TMP/q"
cp "$TESTS/fixtures/qwen2.5-0.5b-slices-peaks.csv" "$TMP/q/peaks.csv"
"$PEAKFIT" fit "$TMP/q" >"$TMP/fit" 2>&1 || fail "fit: exit status $?: $(tail -3 "$TMP/fit")"
whole=$(sed -n 's/^qwen-auto: full: A = \([0-9.]*\) MiB\/token (tensor) +- 0.00%, from 4 points above the knee$/\1/p' \
    "$root/bench/results/auto-sweep/summary.txt" | head -1)
[ -n "$whole" ] || fail "no measured whole-model A in bench/results/auto-sweep/summary.txt"
got=$(python3 -c 'import json, sys
g = [g for g in json.load(open(sys.argv[1]))["groups"] if g["from_slices"] and g["metric"] == "tensor"]
print(g[0]["linear"]["coefficients"][1] if g else "none")' "$TMP/q/fit.json")
python3 -c "import sys; sys.exit(abs($got / $whole - 1) > 1e-4)" 2>/dev/null ||
    fail "A from slices $got MiB/token, the whole model measured $whole"
grep -q "extrapolated to 24 layers; the line the backward phase, the floor the optimizer$" "$TMP/fit" ||
    fail "the line is not backward's: $(grep slices "$TMP/fit" | head -1)"
# Without per-phase peaks (the whole step's peak alone) the fit from slices
# has no floor: its line is said to hold its slices' points, not its own
# (it has none: "all 0 points").
mkdir "$TMP/one"
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
phase = [i for i, n in enumerate(rows[0]) if n.startswith(("forward_", "backward_", "optimizer_")) and n != "optimizer_mib"]
for r in rows[1:]:
    for i in phase:
        r[i] = ""
csv.writer(open(sys.argv[2], "w"), lineterminator="\n").writerows(rows)' \
    "$TESTS/fixtures/qwen2.5-0.5b-slices-peaks.csv" "$TMP/one/peaks.csv"
"$PEAKFIT" fit "$TMP/one" >"$TMP/fit" 2>&1 || fail "fit without phases: $(tail -3 "$TMP/fit")"
expect_eq "the floor line of the fit from slices" "$(grep '^  .* layers 24 (slices 1 2 4) .*floor' "$TMP/fit")" \
    "  qwen2.5-0.5b-shaped / cpu / full / sdpa / layers 24 (slices 1 2 4) / warm 1: no floor: all 15 points of its slices lie on the line (above the knee)"
