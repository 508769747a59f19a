#!/usr/bin/env python3
"""bench/arithmetic-error.py [PEAKFIT]: how far `grid --peaks`' arithmetic
(the instant estimate, before any point runs: point/predict.c) is from the
peaks measured, over every committed results directory that holds its
sweep (DIR/sweep.sweep) and the worker's rows (DIR/peaks.csv).

For each ok row of a technique that runs steps, the arithmetic's expected
peak (RSS, baseline included) for the same point is compared with the
measured peak RSS (peak_rss_mib): error = arithmetic / measured - 1. The
output, per model and technique and over all, is the range and the median,
the figures `grid --peaks` prints beside its estimate
(bench/results/arithmetic-error.txt)."""
import csv
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEAKFIT = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PEAKFIT", str(ROOT / "bin/peakfit"))
# Each results directory with the sweep it was measured from.
DIRS = {"bench/results/smollm2-135m-cpu": "sweeps/smollm2-135m-cpu.sweep",
        "bench/results/smollm2-135m-cpu-heldout": "bench/smollm2-heldout.sweep",
        "bench/results/transformers-2.13": "bench/transformers/side-by-side.sweep",
        "bench/results/tiny-cpu-demo": "sweeps/tiny-cpu.sweep"}
LINE = re.compile(r"^  (\S+): expected peak (\d+) MiB \(arithmetic\)$")


def arithmetic(sweep):
    """point id -> the arithmetic's expected peak (MiB), from grid --peaks' stderr."""
    out = subprocess.run([PEAKFIT, "grid", str(sweep), "--peaks"], capture_output=True, text=True, check=True)
    return {m.group(1): float(m.group(2)) for m in map(LINE.match, out.stderr.splitlines()) if m}


def same_point(row):
    """A point's key without steps and repeat: the arithmetic does not depend on them."""
    return re.sub(r"/st\d+/r\d+$", "", row)


def rows(d):
    expected = {same_point(k): v for k, v in arithmetic(ROOT / DIRS[d]).items()}
    with open(ROOT / d / "peaks.csv", newline="") as f:
        for r in csv.DictReader(f):
            key = same_point(r["point_id"])
            if r["status"] == "ok" and r["technique"] not in ("load", "inference") and key in expected:
                yield d, r["model"], r["technique"], expected[key] / float(r["peak_rss_mib"]) - 1


def line(name, errs):
    pct = [100 * e for e in errs]
    return f"{name:42s} {len(pct):4d} {min(pct):+8.1f} {statistics.median(pct):+8.1f} {max(pct):+8.1f}"


def main():
    found = [r for d in DIRS for r in rows(d)]
    print("# bench/arithmetic-error.py: grid --peaks' arithmetic against the measured peak RSS (baseline included)")
    print("# error = arithmetic / measured - 1, in %, over the committed results directories:")
    for d in DIRS:
        print(f"#   {d} ({sum(1 for r in found if r[0] == d)} points)")
    print(f"{'model / technique':42s} {'n':>4s} {'min':>8s} {'median':>8s} {'max':>8s}")
    groups = sorted({(r[1], r[2]) for r in found})
    for model, tech in groups:
        print(line(f"{model} / {tech}", [r[3] for r in found if r[1] == model and r[2] == tech]))
    print(line("all", [r[3] for r in found]))


if __name__ == "__main__":
    main()
