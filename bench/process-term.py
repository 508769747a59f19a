#!/usr/bin/env python3
"""The process term: what a Python trainer's whole process holds beyond
peakfit's worker at the same point, per technique class, with its spread.

    bench/process-term.py PEAKS_CSV

PEAKS_CSV is bench/process-term.sh term's run (bench/process-term.sweep): each
point measured by the built-in worker (measured_by worker) and by a command
job running examples/transformers/train_step.py with the published
SmolLM2-135M script's protocol (measured_by command ...), each in a fresh
process, the trainer's side three times: its peak moves between runs of one
point (the worker's does not), and each side at each zero_grad (zeros: the
gradients kept through the next forward; none: freed, PyTorch 2's default
and the Trainer's). For each pair (a point at one zero_grad): the worker's
peak above its baseline y, and the difference d = the trainer's
whole-process peak (the mean of its runs) - the worker's (peak_rss_mib:
VmHWM, baseline included, on both sides). Per technique class (full;
full+ckpt; lora, for LoRA with or without checkpointing: the classes of
reports/process_term.c) and zero_grad, a row: a least-squares line d =
offset + proportional * y; its residual sd, its degrees of freedom the pairs
less two (a row of too few pairs takes the sd pooled over every row); the
range of y the row was measured at, where its line holds; and the
trainer's spread between runs of one point: the sd of each run from its
point's mean as a fraction of y, pooled over the row's points (its degrees
of freedom the runs less one per point). Prints the pairs, the rows as
reports/process_term.c's PYTHON_TERM_ROWS takes them (the build reads them
from this output, bench/results/process-term/term.txt), and each pair's
difference as the worker's figure would carry it.
"""
import csv
import math
import re
import sys
from collections import defaultdict, namedtuple


def technique_class(technique):
    return "lora" if technique.startswith("lora") else "full+ckpt" if technique.endswith("+ckpt") else "full"


def points(path):
    """peaks.csv's rows by point, (model, technique, batch, seq_len) -> its
    rows (every run of every job at it), in the order they were measured."""
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            out.setdefault((r["model"], r["technique"], int(r["batch"]), int(r["seq_len"])), []).append(r)
    return out


def sides(path, side):
    """The ok rows by point and by side(row): key -> {side: [rows]}, sorted by
    key; a row not ok is left out, and said so."""
    out = {}
    for key, rows in sorted(points(path).items()):
        for r in rows:
            if r["status"] != "ok":
                print(f"# not ok, left out: {r['point_id']} ({r['status']}: {r['error'][:120]})")
                continue
            out.setdefault(key, defaultdict(list))[side(r)].append(r)
    return out


def side_and_zero_grad(row):
    return ("worker" if row["measured_by"] == "worker" else "python", row["zero_grad"])


def pairs(path):
    """The points both sides measured at one zero_grad: the worker's figures
    and the trainer's, each side's runs of a point (repeats) as a list."""
    out = []
    for key, s in sides(path, side_and_zero_grad).items():
        for z in sorted({z for _, z in s}):
            if ("worker", z) not in s or ("python", z) not in s:
                continue
            w, p = s["worker", z], s["python", z]
            out.append(dict(model=key[0], technique=key[1], batch=key[2], seq_len=key[3], zero_grad=z,
                            worker_baseline=mean(w, "baseline_rss_mib"), worker_peak=mean(w, "peak_rss_mib"),
                            python_baseline=mean(p, "baseline_rss_mib"), python_peak=mean(p, "peak_rss_mib"),
                            python_runs=[float(r["peak_rss_mib"]) for r in p]))
    return out


def mean(rows, column):
    return sum(float(r[column]) for r in rows) / len(rows)


def run_spread(members):
    """The trainer's sd between runs of one point as a fraction of the worker's
    peak above its baseline y, pooled over the points with more than one run,
    and its degrees of freedom (the runs less one per point)."""
    ss, dof = 0.0, 0
    for p in members:
        ss += sum(((run - p["python_peak"]) / p["y"]) ** 2 for run in p["python_runs"])
        dof += len(p["python_runs"]) - 1
    return (math.sqrt(ss / dof), dof) if dof > 0 else (0.0, 0)


# A row of the term (reports/process_term.c's PYTHON_TERM_ROWS), as main
# writes it into term.txt and the build reads it from there.
TermRow = namedtuple("TermRow", "offset proportional sd dof run_sd run_dof y_lo y_hi")


def term_rows(path):
    """term.txt's rows: (class, zero_grad) -> TermRow."""
    num = r"(-?[\d.]+)"
    rows = {}
    with open(path) as f:
        for m in re.finditer(r'X\("([^"]+)", "([^"]+)", %s\)' % ", ".join([num] * len(TermRow._fields)), f.read()):
            rows[m.group(1), m.group(2)] = TermRow(*(float(v) for v in m.groups()[2:]))
    if not rows:
        sys.exit(f"{path}: no PYTHON_TERM_ROWS rows")
    return rows


def term_at(row, y):
    """The term at the worker's peak y above its baseline, held at the ends of
    the range it was measured at (reports/process_term.c's process_term_at)."""
    return row.offset + row.proportional * min(max(y, row.y_lo), row.y_hi)


def line(points):
    """Least squares d = a + k * y; returns a, k and the residuals."""
    n = len(points)
    ys = [p["y"] for p in points]
    ds = [p["d"] for p in points]
    my, md = sum(ys) / n, sum(ds) / n
    sxx = sum((y - my) ** 2 for y in ys)
    k = sum((y - my) * (d - md) for y, d in zip(ys, ds)) / sxx if n > 1 and sxx > 0 else 0.0
    a = md - k * my
    return a, k, [d - (a + k * y) for y, d in zip(ys, ds)]


# The fewest degrees of freedom (pairs less two) for a row's own residual sd:
# below it, the sd pooled over the rows (t at 3 dof is 3.18 x the sd).
OWN_SD_DOF = 3


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    points = pairs(argv[1])
    for p in points:
        p["y"] = p["worker_peak"] - p["worker_baseline"]
        p["d"] = p["python_peak"] - p["worker_peak"]
        p["cls"] = technique_class(p["technique"])
    print("# A Python trainer (train_step.py --build config, the published script's protocol) beside peakfit's")
    print("# worker at the same points, each a fresh process; MiB, whole process (VmHWM, baseline included);")
    print("# python_peak is the mean of the trainer's runs of the point (python_runs).")
    print(f"{'model':<14} {'technique':<10} {'b':>3} {'s':>5} {'zero_grad':<9} {'worker_base':>11} {'worker_peak':>11} "
          f"{'python_base':>11} {'python_peak':>11} {'difference':>10} {'ratio':>7}  python_runs")
    for p in sorted(points, key=lambda p: p["zero_grad"] != "zeros"):
        print(f"{p['model']:<14} {p['technique']:<10} {p['batch']:>3} {p['seq_len']:>5} {p['zero_grad']:<9} "
              f"{p['worker_baseline']:>11.1f} "
              f"{p['worker_peak']:>11.1f} {p['python_baseline']:>11.1f} {p['python_peak']:>11.1f} {p['d']:>10.1f} "
              f"{p['python_peak'] / p['worker_peak']:>7.4f}  {' '.join(f'{r:.1f}' for r in p['python_runs'])}")
    # The rows: each class at zeros (the published script's), then at none.
    classes = sorted({(p["cls"], p["zero_grad"]) for p in points},
                     key=lambda c: (c[1] != "zeros", ["full", "full+ckpt", "lora"].index(c[0])))
    fits, ss, n = {}, 0.0, 0
    for c in classes:
        members = [p for p in points if (p["cls"], p["zero_grad"]) == c]
        a, k, res = line(members)
        fits[c] = (a, k, members, res)
        ss += sum(r * r for r in res)
        n += len(members)
    dof = n - 2 * len(classes)
    sd = math.sqrt(ss / dof) if dof > 0 else float("nan")
    print()
    print("# The term per technique class and zero_grad: difference = offset + proportional x the worker's")
    print("# peak above its baseline (least squares per row) with its residual sd and degrees of freedom (the")
    print(f"# pairs less 2); a row of under {OWN_SD_DOF} takes the sd pooled over the rows: {sd:.1f} MiB, {dof} degrees")
    print(f"# of freedom ({n} pairs less 2 per row). The line holds over the row's y, the worker's peaks above")
    print("# its baseline measured (y_lo, y_hi); the trainer's sd between runs of one point as a fraction of y")
    print("# and its degrees of freedom, per row (run_sd, run_dof).")
    print("# As reports/process_term.c's rows, X(class, zero_grad, offset, proportional, sd, dof, run_sd, run_dof,")
    print("# y_lo, y_hi):")
    for c in classes:
        a, k, members, res = fits[c]
        models = ", ".join(sorted({m["model"] for m in members}))
        lo, hi = min(m["y"] for m in members), max(m["y"] for m in members)
        run_sd, run_dof = run_spread(members)
        own_dof = len(members) - 2
        row_sd, row_dof = ((math.sqrt(sum(r * r for r in res) / own_dof), own_dof) if own_dof >= OWN_SD_DOF
                           else (sd, dof))
        print(f'    X("{c[0]}", "{c[1]}", {a:.1f}, {k:.4f}, {row_sd:.1f}, {row_dof}, {run_sd:.4f}, {run_dof}, {lo:.1f}, '
              f'{hi:.1f})'
              f'  /* {len(members)} pairs: {models} */')
    print()
    print("# Each pair against its row's line: residual MiB, and in % of the trainer's peak")
    for c in classes:
        a, k, members, res = fits[c]
        for p, r in zip(members, res):
            print(f"{c[0]:<10} {c[1]:<6} {p['model']:<14} b{p['batch']} s{p['seq_len']}: term {a + k * p['y']:7.1f}, "
                  f"measured {p['d']:7.1f}, residual {r:+6.1f} ({100 * r / p['python_peak']:+.2f}%)")


if __name__ == "__main__":
    main(sys.argv)
