#!/usr/bin/env python3
"""transformers.Trainer beside the plain loop, against the process term.

    bench/process-trainer.py PEAKS_CSV

PEAKS_CSV is bench/process-term.sh trainer's run (bench/process-trainer.sweep):
each point measured by examples/transformers/train_step.py with its plain
loop (the loop the process term is fitted from) and with --loop trainer, each
in a fresh process; whole process against whole process (peak_rss_mib:
VmHWM, baseline included). For each pair: both peaks and the Trainer's extra
(trainer - plain). Beside it the term reports/process_term.c's rows give for
the plain loop at that point (offset + proportional x the worker's peak above
its baseline, the worker's peak from bench/results/process-term/peaks.csv,
the committed run of the same points) and the Trainer's peak against the
plan's (the worker's peak + the term). The last line: whether every extra
lies within the term's residual spread (2 sd of the rows).
"""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
process_term = __import__("process-term")  # its pairs and technique classes

TERM_ROWS = os.path.join(ROOT, "reports/process_term.c")
WORKER_PEAKS = os.path.join(ROOT, "bench/results/process-term/peaks.csv")


def term_rows(path):
    """reports/process_term.c's PYTHON_TERM_ROWS: class -> (offset, proportional, sd)."""
    rows = {}
    with open(path) as f:
        for m in re.finditer(r'X\("([^"]+)", (-?[\d.]+), (-?[\d.]+), ([\d.]+),', f.read()):
            rows[m.group(1)] = tuple(float(v) for v in m.group(2, 3, 4))
    if not rows:
        sys.exit(f"{path}: no PYTHON_TERM_ROWS rows")
    return rows


def loop_pairs(path):
    """(model, technique, batch, seq_len) -> {"plain": row, "trainer": row}, ok rows only."""
    sides = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                print(f"# not ok, left out: {r['point_id']} ({r['status']}: {r['error'][:120]})")
                continue
            side = "trainer" if "--loop trainer" in r["command"] else "plain"
            key = (r["model"], r["technique"], int(r["batch"]), int(r["seq_len"]))
            sides.setdefault(key, {})[side] = r
    return {k: v for k, v in sorted(sides.items()) if len(v) == 2}


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    rows = term_rows(TERM_ROWS)
    workers = {(p["model"], p["technique"], p["batch"], p["seq_len"]): p
               for p in process_term.pairs(WORKER_PEAKS)}
    spread = 2 * max(sd for _, _, sd in rows.values())
    print("# transformers.Trainer (train_step.py --loop trainer) beside the plain loop (--loop plain), the")
    print("# published script's protocol, each a fresh process; MiB, whole process (VmHWM, baseline included).")
    print("# term: reports/process_term.c's row for the plain loop at the point (the worker's peak from")
    print("# bench/results/process-term/peaks.csv); vs plan: the Trainer's peak - (the worker's peak + term).")
    print(f"{'model':<14} {'technique':<10} {'b':>3} {'s':>5} {'plain_base':>10} {'plain_peak':>10} "
          f"{'trainer_base':>12} {'trainer_peak':>12} {'extra':>7} {'term':>7} {'vs plan':>8}")
    extras = []
    for key, s in loop_pairs(argv[1]).items():
        plain, trainer = float(s["plain"]["peak_rss_mib"]), float(s["trainer"]["peak_rss_mib"])
        extra = trainer - plain
        extras.append(extra)
        w = workers.get(key)
        term = plan = ""
        if w:
            offset, proportional, _ = rows[process_term.technique_class(key[1])]
            t = offset + proportional * (w["worker_peak"] - w["worker_baseline"])
            term, plan = f"{t:7.1f}", f"{trainer - (w['worker_peak'] + t):+8.1f}"
        print(f"{key[0]:<14} {key[1]:<10} {key[2]:>3} {key[3]:>5} {float(s['plain']['baseline_rss_mib']):>10.1f} "
              f"{plain:>10.1f} {float(s['trainer']['baseline_rss_mib']):>12.1f} {trainer:>12.1f} {extra:>+7.1f} "
              f"{term:>7} {plan:>8}")
    if not extras:
        sys.exit("no pair measured by both loops")
    worst = max(extras, key=abs)
    verdict = "within" if abs(worst) <= spread else "outside"
    print()
    print(f"# The Trainer's extra over the plain loop: {min(extras):+.1f} to {max(extras):+.1f} MiB over "
          f"{len(extras)} points, mean {sum(extras) / len(extras):+.1f}; the term's residual spread 2 x "
          f"{spread / 2:.1f} = {spread:.1f} MiB: {verdict} it.")


if __name__ == "__main__":
    main(sys.argv)
