#!/usr/bin/env python3
"""The same SmolLM2-135M full/sdpa points on two machines, and what RSS's
interval needs for a plan made on one and run on the other.

Machine A's rows: the committed grid (bench/results/smollm2-135m-cpu, whose
6x256 and 2x384 are held out) and its off-grid held-out points
(bench/results/smollm2-135m-cpu-heldout/measured). Machine B's: the same six
held-out points measured again on another CPU (bench/smollm2-machines.sweep,
into bench/results/smollm2-135m-cpu-machine-b). For each point: both peaks
and ln(B/A); their root mean square is the relative sd of the difference
between two machines (what fit/group_spread.c's RSS_BETWEEN_MACHINES holds).
Then the twelve held-out points (the six pairs) go beside the grid (machine B's renamed, so
that no row supersedes another) and peakfit fits it: each one's prediction,
95% prediction interval (another machine's adds the spread between
machines) and whether it fell inside.
What it decided (its committed run, bench/results/machines.txt): RSS differs
between the two machines far more than between two runs on one, while the
allocator-level peaks are identical to 0.1 MiB: the heap, not the tensors.
So a plan whose fit was measured on another CPU (calc and verify compare
fit.json's cpu_model with this machine's) adds this spread to RSS's 95%
interval in quadrature (t of 6 dof, fit/group_spread.c RSS_BETWEEN_MACHINES),
and so does a held-out point from another CPU in fit and report; plans on
the measuring machine keep their interval.
Usage: bench/machines.py [DIR]  (bench/run machines: writes DIR/peaks.csv, default a temporary
folder, fits it with PEAKFIT (default bin/peakfit), prints the table)"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
GRID = os.path.join(ROOT, "bench/results/smollm2-135m-cpu/peaks.csv")
HELD_A = os.path.join(ROOT, "bench/results/smollm2-135m-cpu-heldout/measured/peaks.csv")
HELD_B = os.path.join(ROOT, "bench/results/smollm2-135m-cpu-machine-b/peaks.csv")


def rows(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        return r.fieldnames, list(r)


def is_point(row):
    return row["technique"] == "full" and row["attention"] == "sdpa" and row["status"] == "ok"


def main(out):
    header, grid = rows(GRID)
    held_header, held_a = rows(HELD_A)
    b_header, held_b = rows(HELD_B)
    for h in (held_header, b_header):
        header += [c for c in h if c not in header]
    a = {(r["batch"], r["seq_len"]): r for r in grid if is_point(r) and r.get("holdout") == "1"}
    a.update({(r["batch"], r["seq_len"]): dict(r, holdout="1") for r in held_a if is_point(r)})
    b = {(r["batch"], r["seq_len"]): dict(r, holdout="1", job="machine_b_" + r["job"],
                                          point_id="machine_b_" + r["point_id"]) for r in held_b if is_point(r)}
    pairs = sorted(set(a) & set(b), key=lambda k: (int(k[1]), int(k[0])))
    print("RSS above baseline (MiB) of SmolLM2-135M full/sdpa, one warm step, at the same points on two machines")
    print(f"machine A: {a[pairs[0]]['cpu_model']}, libtorch {a[pairs[0]]['torch_version']}, {a[pairs[0]]['blas']}")
    print(f"machine B: {b[pairs[0]]['cpu_model']}, libtorch {b[pairs[0]]['torch_version']}, {b[pairs[0]]['blas']}")
    print("point      machine A  machine B   B/A - 1   allocator A  allocator B")
    d = []
    for k in pairs:
        ya, yb = float(a[k]["peak_above_baseline_mib"]), float(b[k]["peak_above_baseline_mib"])
        d.append(math.log(yb / ya))
        print(f"b{k[0]:<2} s{k[1]:<5} {ya:9.1f}  {yb:9.1f}   {100 * (yb / ya - 1):+6.1f}%   "
              f"{float(a[k]['tensor_peak_mib']):11.1f}  {float(b[k]['tensor_peak_mib']):11.1f}")
    sd = math.sqrt(sum(x * x for x in d) / len(d))
    print(f"relative sd of the difference between the two machines: {100 * sd:.2f}% ({len(d)} pairs, "
          f"{len(d)} degrees of freedom); between two runs on one machine: 1.05% (bench/results/rss-between-runs.txt)")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "peaks.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header, restval="", lineterminator="\n")
        w.writeheader()
        w.writerows(grid + [dict(r, holdout="1") for r in held_a if is_point(r) and (r["batch"], r["seq_len"]) in b] +
                    list(b.values()))
    subprocess.run([os.environ.get("PEAKFIT", os.path.join(ROOT, "bin/peakfit")), "fit", out], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "fit.json")) as f:
        fit = json.load(f)
    g = next(x for x in fit["groups"] if x["technique"] == "full" and x["attention"] == "sdpa" and x["metric"] == "rss")
    machine = {(str(r["batch"]), str(r["seq_len"]), round(float(r["peak_above_baseline_mib"]), 1)): m
               for m, side in (("A", a), ("B", b)) for r in side.values()}
    print(f"\nthe grid's fit (machine A) predicting the held-out points of both machines (peakfit fit, RSS)")
    print("machine  point      measured  predicted +- 95% PI   error   inside")
    inside = {"A": [0, 0], "B": [0, 0]}
    for h in sorted(g["holdout"], key=lambda h: (machine[(str(h["batch"]), str(h["seq_len"]), round(h["measured_mib"], 1))],
                                                  h["seq_len"], h["batch"])):
        m = machine[(str(h["batch"]), str(h["seq_len"]), round(h["measured_mib"], 1))]
        inside[m][0] += bool(h["inside_interval"])
        inside[m][1] += 1
        print(f"{m:<8} b{h['batch']:<2} s{h['seq_len']:<5} {h['measured_mib']:9.1f} {h['predicted_mib']:9.1f} +- "
              f"{h['predicted_pi95_mib']:6.1f} {h['error_pct']:+7.2f}%  {str(h['inside_interval']).lower()}")
    for m, (k, n) in inside.items():
        print(f"machine {m}: {k} of {n} inside their 95% prediction intervals")
    print(f"both: {inside['A'][0] + inside['B'][0]} of {inside['A'][1] + inside['B'][1]}")


if len(sys.argv) > 1:
    main(sys.argv[1])
else:
    with tempfile.TemporaryDirectory() as tmp:
        main(tmp)
